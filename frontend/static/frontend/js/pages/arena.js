// An arena: its head (name, rule, the countdown to its start or its end, joining), the live
// standings (the top 10, the player's rank and neighbours, how many play; a flame on a streak),
// the player's game at the table (deal after deal, "without undo" before a game's first move),
// and after the end the podium and every deal with its replay and analysis. The arena feed
// (/ws/v1/arenas/<id>/) pushes the standings; the game's own feed keeps the board live.
import { get, post } from "../api.js";
import { Board, dockMessagesBeside } from "../board.js";
import { ask } from "../dialogs.js";
import { clock, h, when } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { CLIENT, PUSH } from "../pushes.js";
import { DEFAULT_SETTINGS, startGuest } from "../session.js";
import { connectionBanner, followGame, LiveSocket } from "../socket.js";
import { arenaTitle, fill, playerLink, ruleName } from "../tables.js";

/** Wins in a row from which a player is on a streak (games/arenas/points.py STREAK_AFTER). */
const STREAK_AFTER = 2;
/** The top rows a phone shows beside your own and your neighbours. */
const PHONE_TOP = 3;

/** The flame of a streak: a picture and its words, so colour is never the only signal. */
function flame(inARow) {
  if (inARow < STREAK_AFTER) return null;
  const words = interpolate(gettext("on a streak: %(count)s wins in a row"), { count: formatNumber(inARow) }, true);
  return h("span", { class: "flame", "data-part": "flame", title: words },
    h("span", { class: "flame-icon", "aria-hidden": "true" }), h("span", { "aria-hidden": "true" }, formatNumber(inARow)),
    h("span", { class: "sr-only" }, words));
}

export async function mount(root, ctx, name, id) {
  let arena;
  try {
    arena = await get(`/arenas/${encodeURIComponent(id)}`);
  } catch (error) {
    root.replaceChildren(h("h1", {}, gettext("Arena not found")), h("p", {}, error.message),
      h("a", { href: "/arenas", "data-link": true }, gettext("Back to the arenas")));
    return null;
  }
  let standings = null; // the last pushed (or read) standings
  let standingsVersion = -1;
  let offset = Date.parse(arena.server_now) - Date.now(); // server clock minus ours
  let board = null;
  let game = null; // the game at the table (its id, version, status)
  let gameSocket = null;
  let messages = null;
  let fetching = false;
  const chosenWithoutUndo = new Set((arena.seat?.games ?? []).filter((g) => g.without_undo).map((g) => g.game));
  const head = h("div", { class: "race-head arena-head" });
  const side = h("aside", { class: "opponents arena-standings", "aria-label": gettext("Standings"), "data-part": "standings" });
  const mainPart = h("div", { class: "race-main" });
  root.replaceChildren(head, h("div", { class: "race-table arena-table" }, side, mainPart));
  root.dataset.arena = arena.id;

  const serverNow = () => Date.now() + offset;
  const seated = () => Boolean(arena.seat);

  /** The time shown: to the start, to the end, or that it is over (the server decides). */
  function timerText() {
    if (arena.status === "upcoming") {
      const left = Math.max(0, Math.ceil((Date.parse(arena.starts_at) - serverNow()) / 1000));
      return interpolate(gettext("starts in %(time)s"), { time: clock(left) }, true);
    }
    if (arena.status === "running") {
      const left = Math.max(0, Math.ceil((Date.parse(arena.ends_at) - serverNow()) / 1000));
      return interpolate(gettext("%(time)s left"), { time: clock(left) }, true);
    }
    return gettext("finished");
  }

  function drawHead() {
    const facts = h("p", { class: "facts" }, ruleName(arena.rule), " · ",
      interpolate(gettext("%(minutes)s minutes"), { minutes: formatNumber(arena.minutes) }, true), " · ",
      interpolate(gettext("from %(start)s"), { start: when(arena.starts_at) }, true), " · ",
      h("strong", { class: "time-left", "data-part": "countdown", role: "timer" }, timerText()));
    const parts = [h("h1", {}, arenaTitle(arena)), facts];
    if (arena.private && arena.status !== "finished") {
      parts.push(h("p", { class: "invite" }, gettext("Private arena: invite others with this link:"), " ",
        h("input", { readonly: true, value: `${location.origin}${arena.link}`, class: "invite-link", "aria-label": gettext("Invite link"), onfocus: (event) => event.target.select() })));
    }
    if (!seated() && arena.status !== "finished") {
      parts.push(h("div", { class: "actions room-actions" },
        h("button", { type: "button", class: "primary", "data-action": "join", onclick: join },
          ctx.me ? gettext("Join the arena") : gettext("Join the arena as a guest"))));
      parts.push(h("p", { class: "note" }, gettext("Join any time before the end: everyone plays the same deals in the same order. A win scores 2, from the third win in a row 4.")));
    }
    fill(head, parts);
  }

  async function join() {
    try {
      const fresh = !ctx.me;
      if (fresh) await startGuest(ctx);
      const answer = await post(`/arenas/${encodeURIComponent(arena.id)}/join`);
      arena = answer.arena;
      feed.close(); // the feed's view names the viewer's own row: open it again, seated
      feed = openFeed();
      draw();
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  /** One standings row; the player's own is marked in words and weight, not colour alone. */
  function row(entry, folds = false) {
    const mine = ctx.me && entry.username === ctx.me.username;
    return h("tr", { class: [mine ? "mine" : "", folds ? "folds" : ""].join(" ").trim() || null, "data-player": entry.username, "aria-current": mine ? "true" : null },
      h("td", { class: "rank" }, formatNumber(entry.rank)),
      h("td", { class: "player" }, playerLink(entry.username), mine ? [" ", h("span", { class: "you" }, gettext("(you)"))] : null, " ", flame(entry.in_a_row)),
      h("td", { class: "num", "data-stat": "points" }, formatNumber(entry.points)),
      h("td", { class: "num" }, formatNumber(entry.wins)),
      h("td", { class: "num" }, formatNumber(entry.games)));
  }

  function standingsTable(view) {
    const top = view.rows;
    const shown = new Set(top.map((entry) => entry.rank));
    const near = new Set(view.around.map((entry) => entry.rank));
    const apart = view.around.filter((entry) => !shown.has(entry.rank));
    // On a phone the table keeps the podium's three and your neighbours (`folds`: the rest).
    const body = h("tbody", {}, top.map((entry) => row(entry, entry.rank > PHONE_TOP && !near.has(entry.rank))));
    if (apart.length) {
      body.append(h("tr", { class: "gap", "aria-hidden": "true" }, h("td", { colspan: "5" }, "⋯")));
      apart.forEach((entry) => body.append(row(entry)));
    }
    return h("table", { class: "ranking" },
      h("caption", { class: "sr-only" }, gettext("Standings")),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "rank" }, gettext("Rank")), h("th", { scope: "col" }, gettext("Player")),
        h("th", { scope: "col", class: "num" }, gettext("Points")), h("th", { scope: "col", class: "num" }, gettext("Wins")),
        h("th", { scope: "col", class: "num" }, gettext("Games")))),
      body);
  }

  /** The player's own score: points, rank, and the streak's flame with what the next win scores. */
  function minePart(mine) {
    if (!mine) return null;
    const rank = mine.rank === null ? gettext("not ranked (guests and flagged accounts play unranked)")
      : interpolate(gettext("rank %(rank)s"), { rank: formatNumber(mine.rank) }, true);
    return h("p", { class: "mine-score", "data-part": "mine" },
      h("strong", {}, interpolate(ngettext("You: %(points)s point", "You: %(points)s points", mine.points), { points: formatNumber(mine.points) }, true)), ", ", rank,
      mine.on_streak ? [" ", flame(mine.in_a_row), " ", h("span", { class: "streak-note" }, gettext("your next win scores 4"))] : null);
  }

  function drawStandings() {
    if (!standings) return;
    root.dataset.standingsVersion = standingsVersion;
    fill(side, h("h2", {}, gettext("Standings")),
      h("p", { class: "players", "data-part": "players" },
        interpolate(ngettext("%(count)s player", "%(count)s players", standings.players), { count: formatNumber(standings.players) }, true)),
      minePart(standings.mine),
      standings.rows.length ? standingsTable(standings) : h("p", { class: "empty" }, gettext("Nobody has scored yet.")));
  }

  async function readStandings() {
    const view = await get(`/arenas/${encodeURIComponent(arena.id)}/standings`);
    standings = view;
    drawStandings();
  }

  // ---- the game at the table ------------------------------------------------------------

  async function refetch() {
    if (fetching) return;
    fetching = true;
    try {
      const before = arena.status;
      arena = await get(`/arenas/${encodeURIComponent(arena.id)}`);
      offset = Date.parse(arena.server_now) - Date.now();
      (arena.seat?.games ?? []).filter((g) => g.without_undo).forEach((g) => chosenWithoutUndo.add(g.game));
      if (before !== arena.status && arena.status === "finished") await readStandings();
      draw();
    } finally {
      fetching = false;
    }
  }

  /** The game to play now: the active one, else the next deal (the server deals it). */
  async function nextGame() {
    try {
      const state = await get(`/arenas/${encodeURIComponent(arena.id)}/game`);
      if (state.status !== "active") {
        dropBoard();
        fill(mainPart, h("p", { class: "panel", "data-part": "all-played" }, gettext("You played every deal of this arena: the standings follow until the end.")));
        return;
      }
      showGame(state);
    } catch (error) {
      if (error.code === "arena-over") refetch();
      else if (error.code === "arena-deals-done") fill(mainPart, h("p", { class: "panel", "data-part": "all-played" }, gettext("You played every deal of this arena: the standings follow until the end.")));
      else ctx.notify(error.message, "error", error.code);
    }
  }

  function showGame(state) {
    if (board && game?.id === state.id) return;
    dropBoard();
    game = state;
    const boardEl = h("div", { class: "board", tabindex: "0", role: "application", "aria-label": gettext("Your arena board") });
    const info = h("p", { class: "status", "data-stat": "status" });
    const withoutUndo = h("button", { type: "button", "data-action": "without-undo", onclick: chooseWithoutUndo }, gettext("Play without undo (+1 on a win)"));
    const noUndoBadge = h("span", { class: "badge", "data-part": "without-undo" }, gettext("Without undo"));
    const undoButton = h("button", { type: "button", "data-action": "undo", "aria-label": gettext("Undo the last move (Ctrl+Z)"), onclick: () => board?.undo() }, gettext("Undo"));
    const resignButton = h("button", { type: "button", class: "danger", "data-action": "resign", onclick: resign }, gettext("Resign"));
    fill(mainPart, h("div", { class: "race-bar" }, info, h("div", { class: "controls" }, withoutUndo, noUndoBadge, undoButton, resignButton)), boardEl);
    messages = dockMessagesBeside(ctx, root, boardEl);
    const deal = (arena.seat?.games ?? []).find((g) => g.game === state.id);
    board = new Board(boardEl, {
      onDraw: messages.place,
      settings: { ...DEFAULT_SETTINGS, ...(ctx.me?.settings ?? {}) },
      readOnly: false,
      socket: () => gameSocket,
      notify: ctx.notify,
      announce: ctx.announce,
      onState(next) {
        game = next;
        const noUndo = chosenWithoutUndo.has(next.id);
        const number = deal ? deal.index + 1 : null;
        info.textContent = [
          number ? interpolate(gettext("Deal %(number)s of %(count)s"), { number: formatNumber(number), count: formatNumber(arena.deals) }, true) : null,
          interpolate(gettext("%(cards)s of 52 home, %(moves)s moves"), { cards: formatNumber(next.cards_on_foundations), moves: formatNumber(next.move_count) }, true),
        ].filter(Boolean).join(" · ");
        root.dataset.game = next.id;
        root.dataset.version = next.version;
        withoutUndo.hidden = noUndo || next.version !== 0 || next.status !== "active";
        noUndoBadge.hidden = !noUndo;
        undoButton.disabled = noUndo || next.status !== "active" || next.undo_depth === 0;
        resignButton.disabled = next.status !== "active";
        if (next.status !== "active") setTimeout(afterGame, 0); // out of the board's drawing
      },
    });
    board.setState(state);
    board.draw();
    gameSocket = followGame(state.id, { version: () => board?.version(), onState: (next) => board?.setState(next) });
  }

  /** A game ended (won, resigned, or no move left): the next deal follows at once. */
  async function afterGame() {
    if (arena.status !== "running") return;
    await refetch();
    if (arena.status === "running") await nextGame();
  }

  async function chooseWithoutUndo() {
    try {
      const state = await post(`/arenas/${encodeURIComponent(arena.id)}/without-undo`);
      chosenWithoutUndo.add(state.id);
      board?.setState(state); // draws the badge, hides the choice, turns Undo off
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  async function resign() {
    const choice = await ask(gettext("Resign this deal?"),
      gettext("The next deal follows at once. A game resigned before its fifth move scores nothing and ends your streak."),
      [{ label: gettext("Resign"), value: "resign", kind: "danger" }]);
    if (choice && board) await board.send(CLIENT.RESIGN, {});
  }

  const onKey = (event) => {
    if (!board || event.target.closest("input, textarea, dialog")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      if (!chosenWithoutUndo.has(game?.id)) board.undo();
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

  // ---- after the end ------------------------------------------------------------------------

  /** The podium (the final top three) and every deal: its code, and your game's replay. */
  function drawEnd() {
    const podium = (standings?.rows ?? []).slice(0, 3);
    const mine = new Map((arena.seat?.games ?? []).map((g) => [g.index, g]));
    return h("section", { class: "panel arena-end", "data-part": "end" },
      h("h2", {}, gettext("The arena is over")),
      podium.length ? h("ol", { class: "podium", "data-part": "podium", "aria-label": gettext("Podium") },
        podium.map((entry) => h("li", { class: `place-${entry.rank}`, "data-player": entry.username },
          h("span", { class: "place" }, formatNumber(entry.rank)),
          h("span", { class: "who" }, playerLink(entry.username)),
          h("span", { class: "score" }, interpolate(ngettext("%(points)s point", "%(points)s points", entry.points), { points: formatNumber(entry.points) }, true)))))
        : h("p", { class: "empty" }, gettext("Nobody was ranked in this arena.")),
      arena.seat?.rank ? h("p", { "data-part": "my-rank" }, interpolate(gettext("Your final rank: %(rank)s"), { rank: formatNumber(arena.seat.rank) }, true)) : null,
      h("h3", {}, gettext("The deals")),
      h("ol", { class: "arena-deals", "data-part": "deals" }, (arena.codes ?? []).map((code, index) => {
        const played = mine.get(index);
        return h("li", { "data-deal": String(index + 1) }, h("code", {}, code),
          played ? [" · ", h("a", { href: `/game/${played.game}/replay`, "data-link": true }, gettext("your replay and analysis"))] : null);
      })),
      h("div", { class: "actions" }, h("a", { href: "/arenas", "data-link": true, class: "button secondary" }, gettext("Back to the arenas"))));
  }

  function draw() {
    root.dataset.status = arena.status;
    drawHead();
    drawStandings();
    if (arena.status === "finished") {
      dropBoard();
      fill(mainPart, drawEnd());
    } else if (arena.status === "running" && seated()) {
      if (!board) nextGame();
    } else if (seated()) {
      fill(mainPart, h("p", { class: "panel", "data-part": "wait-start" }, gettext("You have a seat: your first deal comes at the start.")));
    } else {
      fill(mainPart);
    }
  }

  const openFeed = () => new LiveSocket(`/ws/v1/arenas/${encodeURIComponent(arena.id)}/`, {
    onStatus: (what, detail) => ctx.banner(connectionBanner(what, detail)),
    onMessage(message) {
      if (message.t !== PUSH.ARENA) return;
      if (message.v < standingsVersion && message.d.status === standings?.status) return;
      standingsVersion = message.v;
      standings = message.d;
      offset = Date.parse(message.d.server_now) - Date.now();
      if (message.d.status !== arena.status) refetch();
      else drawStandings();
    },
  });
  let feed = openFeed();

  // The countdown runs here between pushes; the server's stored times decide.
  const ticker = setInterval(() => {
    const timer = head.querySelector("[data-part=countdown]");
    if (timer) timer.textContent = timerText();
    if (arena.status === "upcoming" && serverNow() >= Date.parse(arena.starts_at)) refetch();
  }, 250);

  draw();
  return () => {
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
    feed.close();
    dropBoard();
  };
}
