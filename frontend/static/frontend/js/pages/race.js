// A race: the room (invite link, who is ready), the countdown, the race table (the player's own
// board beside the opponents' progress, which never shows a card), and the end screen (ranking,
// rating changes, rematch). The race feed (/ws/v1/races/<room>/) keeps every part live.
import { get, post } from "../api.js";
import { Board, dockMessagesBeside } from "../board.js";
import { ask } from "../dialogs.js";
import { clock, h } from "../dom.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";
import { DEFAULT_SETTINGS, startGuest } from "../session.js";
import { connectionBanner, followGame, LiveSocket } from "../socket.js";
import { PUSH, CLIENT } from "../pushes.js";
import { classify } from "../versions.js";
import { rankLabel, ratingText, sharedRanks } from "../standings.js";

/** A deleted account's results stay in its races, shown as "deleted player" (docs/api.md 10). */
const DELETED = "deleted-player-";
const shownName = (racer) => (racer.player.startsWith(DELETED) ? gettext("deleted player") : racer.player);
import { fill, playerLink, ruleName } from "../tables.js";

const STATE_NAMES = {
  waiting: gettext("waiting"),
  playing: gettext("playing"),
  disconnected: gettext("disconnected"),
  won: gettext("won"),
  resigned: gettext("resigned"),
  forfeited: gettext("forfeited"),
  finished: gettext("finished"),
};

export async function mount(root, ctx, name, roomParam) {
  const room = roomParam.toUpperCase();
  let race;
  try {
    race = await get(`/races/${room}`);
  } catch (error) {
    root.replaceChildren(h("h1", {}, gettext("Race not found")), h("p", {}, error.message),
      h("a", { href: "/races", "data-link": true }, gettext("Back to the races")));
    return null;
  }
  let me = race.me;
  let offset = Date.parse(race.server_now) - Date.now(); // server clock minus ours
  let board = null;
  let messages = null; // docked beside the race board while there is one
  let gameSocket = null;
  let fetching = false;
  const head = h("div", { class: "race-head" });
  const side = h("aside", { class: "opponents", "aria-label": gettext("Racers"), "aria-live": "polite" });
  const mainPart = h("div", { class: "race-main" });
  const wrap = h("div", { class: "race-table" }, side, mainPart);
  root.replaceChildren(head, wrap);
  root.dataset.room = room;

  const serverNow = () => Date.now() + offset;

  async function act(path) {
    try {
      const fresh = !ctx.me;
      if (fresh) await startGuest(ctx);
      const answer = await post(`/races/${room}/${path}`);
      // The feed's socket becomes our presence: a new guest's opens again with the session.
      if (fresh) {
        feed.close();
        feed = openFeed();
      } else if (path === "join") feed.send({ t: CLIENT.RESYNC });
      if (answer.room !== room) {
        ctx.navigate(`/races/${answer.room}`);
        return;
      }
      show(answer);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  /** A full race state (REST or feed); REST answers carry `me`, pushes do not. */
  function show(next) {
    if (race && next.version < race.version) return;
    if ("me" in next) me = next.me;
    offset = Date.parse(next.server_now) - Date.now();
    race = next;
    draw();
  }

  async function refetch() {
    if (fetching) return;
    fetching = true;
    try {
      show(await get(`/races/${room}`));
    } finally {
      fetching = false;
    }
  }

  function racerLine(racer) {
    const mine = ctx.me && racer.player === ctx.me.username;
    return h("li", { class: `racer state-${racer.state}${mine ? " mine" : ""}`, "data-player": racer.player, "data-state": racer.state },
      h("span", { class: "who" }, racer.player.startsWith(DELETED) ? shownName(racer)
        : racer.guest ? [racer.player, ` (${gettext("guest")})`] : playerLink(racer.player)),
      race.status === "open"
        ? h("span", { class: "ready" }, racer.ready ? gettext("ready") : gettext("not ready"))
        : h("span", { class: "progress" },
          h("span", { "data-stat": "foundations", title: gettext("Cards on the foundations") }, `${formatNumber(racer.cards_on_foundations)}/52`),
          h("span", { "data-stat": "face-down", title: gettext("Face-down cards left") }, interpolate(gettext("%(count)s down"), { count: formatNumber(racer.face_down) }, true)),
          h("span", { "data-stat": "moves" }, interpolate(gettext("%(count)s moves"), { count: formatNumber(racer.moves) }, true)),
          h("span", { "data-stat": "time" }, clock(elapsedOf(racer))),
          h("span", { class: "state" }, STATE_NAMES[racer.state] ?? racer.state)),
      h("meter", { min: "0", max: "52", value: String(racer.cards_on_foundations), "aria-hidden": "true" }));
  }

  function elapsedOf(racer) {
    if (race.status !== "running" || racer.finished_at || !race.starts_at) return racer.elapsed_seconds;
    return Math.max(0, (serverNow() - Date.parse(race.starts_at)) / 1000);
  }

  // Rated, or why nobody's rating can change (the server decides: `unrated_reason`).
  function ratedPart() {
    const [label, title] = race.rated
      ? [gettext("Rated"), gettext("Registered racers who make five moves or more are rated.")]
      : race.unrated_reason === "guests"
        ? [gettext("Unrated (guests)"), gettext("Guests race unrated, and fewer than two registered racers take part: nobody's rating changes.")]
        : [gettext("Unrated (chosen deal)"), gettext("A chosen deal could be solved beforehand: nobody's rating changes.")];
    return h("span", { "data-part": "rated", title }, label);
  }

  function drawHead() {
    const link = `${location.origin}/races/${room}`;
    const title = h("h1", {}, interpolate(gettext("Race %(room)s"), { room }, true));
    const facts = h("p", { class: "facts" }, ruleName(race.rule), " · ",
      interpolate(gettext("time limit %(time)s"), { time: clock(race.time_limit_seconds) }, true), " · ",
      ratedPart(),
      race.code ? [" · ", interpolate(gettext("Deal %(code)s"), { code: race.code }, true)] : null,
      race.status === "running" && race.ends_at ? [" · ", h("strong", { class: "time-left", "data-part": "time-left", role: "timer" }, timeLeftText())] : null);
    const parts = [title, facts];
    if (race.status === "open") {
      const seated = Boolean(me);
      const myRacer = race.racers.find((racer) => ctx.me && racer.player === ctx.me.username);
      parts.push(h("p", { class: "invite" }, gettext("Invite others with this link:"), " ",
        h("input", { readonly: true, value: link, class: "invite-link", "aria-label": gettext("Invite link"), onfocus: (event) => event.target.select() }),
        " ", interpolate(gettext("or the room code %(room)s"), { room }, true)));
      parts.push(h("div", { class: "actions room-actions" },
        seated ? null : h("button", { type: "button", class: "primary", "data-action": "join", onclick: () => act("join") }, ctx.me ? gettext("Join the race") : gettext("Join as a guest")),
        seated && !myRacer?.ready ? h("button", { type: "button", class: "primary", "data-action": "ready", onclick: () => act("ready") }, gettext("I'm ready")) : null,
        seated && ctx.me?.username === race.creator && race.racers.length >= 2 ? h("button", { type: "button", "data-action": "start", onclick: () => act("start") }, gettext("Start now")) : null,
        seated ? h("button", { type: "button", class: "secondary", "data-action": "leave", onclick: () => act("leave").then(() => ctx.navigate("/races")) }, gettext("Leave")) : null));
      if (race.waiting_for.length) {
        parts.push(h("p", { class: "waiting", "data-part": "waiting", role: "status" },
          interpolate(gettext("Waiting for %(names)s to join the rematch (30 seconds at most)…"), { names: race.waiting_for.join(", ") }, true)));
      }
      parts.push(h("p", { class: "note" }, gettext("The countdown starts when everyone is ready, or when the creator starts it.")));
    }
    if (race.status === "countdown") {
      parts.push(h("p", { class: "countdown", "data-part": "countdown", role: "timer" }, countdownText()));
    }
    fill(head, parts);
  }

  function countdownText() {
    const left = Math.max(0, Math.ceil((Date.parse(race.starts_at) - serverNow()) / 1000));
    return left > 0 ? interpolate(gettext("The deal comes in %(seconds)s…"), { seconds: formatNumber(left) }, true) : gettext("Go!");
  }

  /** The time left until the server's `ends_at`: shown only, the server ends the race. */
  function timeLeftText() {
    const left = Math.max(0, Math.ceil((Date.parse(race.ends_at) - serverNow()) / 1000));
    return interpolate(gettext("%(time)s left"), { time: clock(left) }, true);
  }

  function drawSide() {
    const racers = race.status === "finished" ? [...race.racers].sort((a, b) => a.place - b.place) : race.racers;
    fill(side, h("h2", {}, gettext("Racers")), h("ol", { class: "racers" }, racers.map(racerLine)));
  }

  function drawEnd() {
    const rows = [...race.racers].sort((a, b) => a.place - b.place);
    const ties = sharedRanks(rows.map((racer) => ({ rank: racer.place })));
    const change = (racer) => racer.rating_after === null ? "—" : ratingText(racer.rating_before, racer.rating_after);
    const left = (racer) => racer.state === "resigned" || racer.state === "forfeited" ? [" ", h("span", { class: "left" }, `(${STATE_NAMES[racer.state]})`)] : null;
    const winner = rows.find((racer) => racer.state === "won");
    const reason = { won: gettext("First to win all 52 cards."), "time-limit": gettext("The time limit ended the race."), "all-done": gettext("No racer was still playing.") }[race.end_reason] ?? "";
    const panel = h("section", { class: "panel race-end", "data-part": "end" },
      h("h2", {}, winner ? interpolate(gettext("%(name)s wins the race!"), { name: shownName(winner) }, true) : gettext("The race is over")),
      h("p", {}, reason),
      h("p", { class: "note" }, gettext("Places: the winner, then everyone who played on, then who resigned or forfeited; each by cards home, then face-down cards turned up. Equal progress is a shared place.")),
      h("table", { class: "ranking" },
        h("thead", {}, h("tr", {}, [gettext("Rank"), gettext("Player"), gettext("Cards home"), gettext("Moves"), gettext("Time"), gettext("Rating")].map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, rows.map((racer) => h("tr", { "data-player": racer.player },
          h("td", { class: "place" }, rankLabel(racer.place, ties)), h("td", {}, shownName(racer), left(racer)), h("td", {}, formatNumber(racer.cards_on_foundations)),
          h("td", {}, formatNumber(racer.moves)), h("td", {}, clock(racer.elapsed_seconds)), h("td", { class: "rating" }, change(racer)))))),
      h("div", { class: "actions" },
        rows.map((racer) => racer.game ? h("a", { href: `/watch/${racer.game}`, "data-link": true }, interpolate(gettext("%(name)s's board"), { name: shownName(racer) }, true)) : null),
        me ? h("button", { type: "button", class: "primary", "data-action": "rematch", onclick: () => act("rematch") }, race.rematch ? gettext("Join the rematch") : gettext("Rematch")) : null,
        h("a", { href: "/races", "data-link": true, class: "button secondary" }, gettext("Back to the races"))));
    return panel;
  }

  async function ensureBoard() {
    if (board || !me?.game || race.status !== "running") return;
    const state = await get(`/games/${me.game}`);
    if (board) return;
    const boardEl = h("div", { class: "board", tabindex: "0", role: "application", "aria-label": gettext("Your race board") });
    const info = h("p", { class: "status", "data-stat": "status" });
    const undoButton = h("button", { type: "button", "data-action": "undo", "aria-label": gettext("Undo the last move (Ctrl+Z)"), onclick: () => board?.undo() }, gettext("Undo"));
    const resignButton = h("button", { type: "button", class: "danger", "data-action": "resign", onclick: resign }, gettext("Resign"));
    fill(mainPart, h("div", { class: "race-bar" }, info, h("div", { class: "controls" }, undoButton, resignButton)), boardEl);
    messages = dockMessagesBeside(ctx, root, boardEl);
    board = new Board(boardEl, {
      onDraw: messages.place,
      settings: { ...DEFAULT_SETTINGS, ...(ctx.me?.settings ?? {}) },
      readOnly: false,
      socket: () => gameSocket,
      notify: ctx.notify,
      announce: ctx.announce,
      onState(next) {
        info.textContent = interpolate(gettext("You: %(cards)s of 52 home, %(moves)s moves"), { cards: formatNumber(next.cards_on_foundations), moves: formatNumber(next.move_count) }, true);
        root.dataset.gameVersion = next.version;
        undoButton.disabled = next.status !== "active" || next.undo_depth === 0;
        resignButton.disabled = next.status !== "active";
      },
    });
    board.setState(state);
    board.draw();
    gameSocket = followGame(state.id, { version: () => board.version(), onState: (next) => board.setState(next) });
  }

  /** Resign the race game: the racer stays to watch, ranked below everyone who plays on. */
  async function resign() {
    const choice = await ask(gettext("Resign from this race?"),
      gettext("You will rank below every racer who plays on, and cannot come back into this race."),
      [{ label: gettext("Resign"), value: "resign", kind: "danger" }]);
    if (choice && board) await board.send(CLIENT.RESIGN, {});
  }

  const onKey = (event) => {
    if (!board || event.target.closest("input, textarea, dialog")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      board.undo();
    }
  };
  document.addEventListener("keydown", onKey);

  function dropBoard() {
    gameSocket?.close();
    gameSocket = null;
    board?.destroy();
    board = null;
    messages?.undock();
    messages = null;
  }

  function draw() {
    root.dataset.status = race.status;
    root.dataset.version = race.version;
    drawHead();
    drawSide();
    if (race.status === "finished") {
      dropBoard();
      fill(mainPart, drawEnd());
    } else if (race.status === "running" && me) {
      if (!me.game) refetch();
      else ensureBoard();
    } else if (race.status !== "running") {
      fill(mainPart);
    }
  }

  const openFeed = () => new LiveSocket(`/ws/v1/races/${room}/`, {
    onStatus: (what, detail) => ctx.banner(connectionBanner(what, detail)),
    onMessage(message) {
      if (message.t === PUSH.RACE) {
        const wasRunning = race.status === "running";
        if (message.v > race.version) show(message.d);
        if (!wasRunning && race.status === "running" && me && !me.game) refetch();
      } else if (message.t === PUSH.RACE_PROGRESS) {
        const verdict = classify(message.v, race.version);
        if (verdict === "next") {
          race = { ...race, version: message.v, racers: race.racers.map((racer) => (racer.player === message.d.racer.player ? message.d.racer : racer)) };
          root.dataset.version = race.version;
          drawSide();
        } else if (verdict === "gap") feed.send({ t: CLIENT.RESYNC });
      }
    },
  });
  let feed = openFeed();

  // The clocks and the countdown run here between pushes; the server's stored times decide.
  const ticker = setInterval(() => {
    if (race.status === "countdown") {
      const part = head.querySelector("[data-part=countdown]");
      if (part) part.textContent = countdownText();
      if (serverNow() >= Date.parse(race.starts_at)) refetch();
    } else if (race.status === "running") {
      side.querySelectorAll("li.racer").forEach((li) => {
        const racer = race.racers.find((r) => r.player === li.dataset.player);
        if (racer) li.querySelector("[data-stat=time]").textContent = clock(elapsedOf(racer));
      });
      const timeLeft = head.querySelector("[data-part=time-left]");
      if (timeLeft) timeLeft.textContent = timeLeftText();
      if (race.ends_at && serverNow() >= Date.parse(race.ends_at)) refetch();
    }
  }, 250);

  draw();
  return () => {
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
    feed.close();
    dropBoard();
  };
}
