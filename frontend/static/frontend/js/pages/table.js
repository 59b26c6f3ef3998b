// The table: info bar, controls, the board, the new game dialog, live updates; on a win the
// celebration (celebration.js, loaded then).
import { get, post } from "../api.js";
import { assistAnswered, assistButtons } from "../assists.js";
import { Board, dockMessagesBeside } from "../board.js";
import { ask } from "../dialogs.js";
import { difficultyField, difficultyOf } from "../difficulty.js";
import { moreMenu } from "../menus.js";
import { clock, field, h } from "../dom.js";
import { showKeys } from "../keyhelp.js";
import { attendTable } from "../presence.js";
import { DEFAULT_SETTINGS, startGuest } from "../session.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { CLIENT } from "../pushes.js";
import { connectionBanner, followGame } from "../socket.js";
import { RULES, ruleChoiceLabel, ruleName, ruleQuery } from "../variants.js";

/** Routes "home", "game" and "watch" all land here. */
export async function mount(root, ctx, name, gameId) {
  if (name === "home") return home(root, ctx);
  let state;
  try {
    state = await get(`/games/${gameId}`);
  } catch (error) {
    root.replaceChildren(h("h1", {}, gettext("Game not found")), h("p", {}, error.message));
    return null;
  }
  const spectating = name === "watch" || ctx.me?.username !== state.owner;
  return table(root, ctx, state, spectating);
}

async function home(root, ctx) {
  if (!ctx.me) {
    root.replaceChildren(
      h("section", { class: "landing" },
        h("h1", {}, gettext("Yukon Solitaire")),
        h("p", {}, gettext("Every move checked by the server, every game replayable, friends watching live.")),
        h("p", { class: "play-now" },
          h("button", { type: "button", class: "primary big", "data-action": "play-now", onclick: (event) => playNow(ctx, event.currentTarget) }, gettext("Play now")),
          " ", h("span", { class: "note" }, gettext("No account needed: sign up later and keep your games."))),
        h("p", {}, h("a", { href: "/signup", "data-link": true }, gettext("Sign up")), " · ",
          h("a", { href: "/login", "data-link": true }, gettext("Log in")), " ", gettext("or"), " ",
          h("a", { href: "/watch", "data-link": true }, gettext("watch live games"))),
        h("p", {}, h("a", { href: "/rules", "data-link": true }, gettext("How to play Yukon"))),
      ),
    );
    return null;
  }
  const page = await get("/games?status=active&page_size=1");
  if (ctx.signal.aborted) return null; // left while it loaded: no dialog over the next page
  if (page.results.length) {
    ctx.navigate(`/game/${page.results[0].id}`, { replace: true });
    return null;
  }
  // The dialog opens by itself but never traps the player: Cancel or Esc leave this page usable.
  root.replaceChildren(h("section", { class: "landing" }, h("h1", {}, gettext("Ready for a deal?")),
    h("p", {}, h("button", { type: "button", class: "primary big", "data-action": "new-game", onclick: () => newGameDialog(ctx) }, gettext("New game")), " ",
      h("a", { href: "/daily", "data-link": true }, gettext("Play today's deal")), " · ",
      h("a", { href: "/games", "data-link": true }, gettext("My games")))));
  newGameDialog(ctx);
  return null;
}

/** One click from the landing page to a dealt game, as a guest. */
async function playNow(ctx, button) {
  button.disabled = true;
  try {
    await startGuest(ctx);
    const state = await post("/games", { rule: "C" });
    ctx.navigate(`/game/${state.id}`);
  } catch (error) {
    button.disabled = false;
    ctx.notify(error.message, "error", error.code);
  }
}

/**
 * The new game dialog: a rule (Classic first), random or a typed code; code errors inline.
 * `replaces`: the game left for the new one (the server deletes it if nothing happened in it).
 */
export function newGameDialog(ctx, { replaces } = {}) {
  const code = h("input", { name: "code", autocomplete: "off", spellcheck: "false", placeholder: interpolate(gettext("e.g. %(code)s"), { code: "YU1-C-AAAAAAB" }, true), "aria-describedby": "new-game-error" });
  const error = h("p", { id: "new-game-error", class: "field-error", role: "alert" });
  const radio = (value, label, checked) =>
    h("label", { class: "choice" }, h("input", { type: "radio", name: "rule", value, checked }), label);
  const dialog = h("dialog", { class: "dialog", "aria-labelledby": "new-game-title" },
    h("form", { method: "dialog" },
      h("h2", { id: "new-game-title" }, gettext("New game")),
      h("fieldset", {}, h("legend", {}, gettext("Rules")),
        RULES.map((rule) => radio(rule, ruleChoiceLabel(rule), rule === "C"))),
      difficultyField(),
      // What the grades mean, and how often each rule's deals can be won.
      h("p", { class: "see-also" }, h("a", { href: "/odds", "data-link": true, onclick: () => dialog.close() }, gettext("The odds of Yukon"))),
      field(gettext("Deal code (leave empty for a random deal)"), code),
      error,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, gettext("Cancel")),
        h("button", { type: "submit", class: "primary" }, pgettext("button", "Deal"))),
    ),
  );
  dialog.querySelector("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const typed = code.value.trim();
    const body = typed ? { code: typed } : { rule: dialog.querySelector("input[name=rule]:checked").value, ...difficultyOf(dialog) };
    if (replaces) body.replaces = replaces;
    try {
      const state = await post("/games", body);
      dialog.close();
      ctx.navigate(`/game/${state.id}`);
    } catch (failure) {
      error.textContent = failure.fields?.code?.join?.(" ") ?? failure.message;
      code.focus();
    }
  });
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** A game just resigned here: where to go next, the analysis of where the win was lost first. */
function endDialog(ctx, state) {
  const dialog = h("dialog", { class: "dialog ended", "aria-labelledby": "ended-title" },
    h("h2", { id: "ended-title" }, gettext("Game over")),
    h("p", {}, interpolate(ngettext("You resigned with %(cards)s card home.", "You resigned with %(cards)s cards home.", state.cards_on_foundations), { cards: formatNumber(state.cards_on_foundations) }, true),
      " ", gettext("The solver is looking for where the win was lost.")),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, gettext("See the table")),
      h("a", { href: `/game/${state.id}/replay`, "data-link": true, "data-action": "replay", class: "button primary", onclick: () => dialog.close() }, gettext("Replay and analysis")),
      h("button", { type: "button", "data-action": "new-game", onclick: () => { dialog.close(); newGameDialog(ctx); } }, gettext("New game"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

function stat(label, key, note = null) {
  const head = h("span", { class: "label" }, label);
  return h("div", { class: "stat" }, note ? h("span", { class: "label-row" }, head, note) : head, h("span", { class: "value", "data-stat": key }));
}

/** The clock's rule in a word: time at the table, stopped while the game is parked. */
function clockNote() {
  const text = gettext("Time at the table from your first move: the clock stops while the game is parked (this tab hidden or closed, or the game kept for later).");
  return h("button", { type: "button", class: "clock-note", "data-note": "clock", "data-text": text, "aria-label": text }, "i");
}

function table(root, ctx, initial, spectating) {
  const settings = { ...DEFAULT_SETTINGS, ...(ctx.me?.settings ?? {}) };
  const codeText = h("span", { class: "value code", "data-stat": "code" });
  const copy = h("button", { type: "button", class: "icon", onclick: copyCode });
  const undoButton = h("button", { type: "button", "aria-label": gettext("Undo the last move (Ctrl+Z)"), onclick: () => board.undo() }, gettext("Undo"));
  const finishButton = h("button", { type: "button", class: "primary", "data-action": "finish", hidden: true, "aria-keyshortcuts": "F", "aria-label": gettext("Finish: play the rest home (F)"), onclick: () => board.finish() }, gettext("Finish"));
  const keysButton = h("button", { type: "button", class: "keys-help", "data-action": "keys", "aria-haspopup": "dialog", "aria-keyshortcuts": "?", "aria-label": gettext("Keyboard controls (?)"), onclick: () => showKeys() },
    // "?" in the row; folded under More on a phone, its name beside it.
    h("span", { class: "keys-mark", "aria-hidden": "true" }, "?"), h("span", { class: "keys-name" }, gettext("Keyboard controls")));
  const resignButton = h("button", { type: "button", class: "danger", "data-action": "resign", onclick: () => resign() }, gettext("Resign"));
  const newButton = h("button", { type: "button", class: "primary", onclick: () => newGame() }, gettext("New game"));
  const assists = spectating ? [] : assistButtons(ctx, () => board, initial.help);
  const status = h("p", { class: "status", "data-stat": "status" });
  const replayLink = h("a", { href: `/game/${initial.id}/replay`, "data-link": true, "data-action": "replay", class: "button", hidden: true }, gettext("Replay and analysis"));
  const info = h("section", { class: "infobar", "aria-label": gettext("Game information") },
    stat(gettext("Time"), "time", clockNote()), stat(gettext("Moves"), "moves"), stat(gettext("Score"), "score"),
    h("div", { class: "stat code-stat" }, h("span", { class: "label" }, gettext("Code")), codeText, copy),
    // On a phone the bar keeps to one row: what follows the hint folds under "More".
    h("div", { class: "controls" }, spectating ? null : finishButton, spectating ? null : undoButton, assists[0],
      moreMenu([...assists.slice(1), spectating ? null : resignButton, replayLink, ctx.me ? newButton : null, spectating ? null : keysButton])),
  );
  const head = h("div", { class: "table-head" }, info, status);
  const boardEl = h("div", { class: "board", tabindex: "0", role: "application",
    "aria-label": gettext("Yukon table. Arrows move between cards, Enter picks a card up and puts it down, 1 to 7 or F choose where it goes, T taps, D double clicks, Ctrl+Z undoes, F finishes once every card is face up. Press ? for every key.") });
  root.replaceChildren(h("h1", { class: "sr-only" }, gettext("Yukon Solitaire")), head, boardEl);
  // Messages go where the layout keeps a place free of cards: they hide nothing.
  const messages = dockMessagesBeside(ctx, root, boardEl);

  let clockBase = { seconds: 0, at: 0, running: false };
  let clockTimer = 0;
  let shownVersion = initial.version;
  // The celebration is for a win seen happening here: a reload of a won game shows it quietly.
  let seenActive = false;
  const leaving = new AbortController();
  let toldClosed = false;
  const board = new Board(boardEl, {
    settings,
    readOnly: spectating,
    socket: () => socket,
    notify: ctx.notify,
    announce: ctx.announce,
    onDraw: messages.place,
    sound(kind) {
      if (settings.sounds) import("../sounds.js").then((sounds) => sounds.play(kind));
    },
    onState(state) {
      // A ranked daily game whose day closed is frozen (`closed`): no clock, no move, no assist.
      const live = isLive(state);
      showClock(state);
      if (state.version !== shownVersion) ctx.endMessages("board"); // the table they spoke of is gone
      shownVersion = state.version;
      root.querySelector("[data-stat=moves]").textContent = formatNumber(state.move_count);
      root.querySelector("[data-stat=score]").textContent = formatNumber(state.score);
      showCode(state);
      undoButton.disabled = state.undo_depth === 0 || !live;
      finishButton.hidden = !(live && state.can_finish);
      resignButton.disabled = !live;
      assists.forEach((button) => { button.disabled = !live; });
      if (state.closed && !toldClosed) {
        toldClosed = true;
        ctx.notify(gettext("This daily deal is closed: its ranking is final."));
      }
      root.dataset.version = state.version;
      root.dataset.status = state.status;
      const who = spectating ? interpolate(gettext("Watching %(name)s"), { name: state.owner }, true) : "";
      const rule = interpolate(gettext("%(rule)s rules"), { rule: ruleName(state.rule) }, true);
      const over = state.status === "won" ? gettext("Won") : state.status === "abandoned" ? gettext("Abandoned") : state.closed ? gettext("Day closed") : "";
      status.textContent = [who, rule, over].filter(Boolean).join(" · ");
      replayLink.hidden = state.status === "active";
      if (state.status === "active") seenActive = true;
      else if (state.status === "abandoned" && seenActive && !spectating) {
        seenActive = false;
        endDialog(ctx, state);
      } else if (state.status === "won" && seenActive) {
        seenActive = false;
        import("../celebration.js").then((module) => module.celebrate(ctx, state, { board: boardEl, spectating, signal: leaving.signal }));
      }
    },
  });
  board.setState(initial);
  board.draw();

  /** An active game, not frozen by its day's close: its clock may run, its cards move. */
  function isLive(state) {
    return state.status === "active" && !state.closed;
  }

  /** Take the server's clock from a state: its time, and whether it runs now. */
  function showClock(state) {
    clockBase = { seconds: state.elapsed_seconds, at: performance.now(), running: isLive(state) && state.clock_running };
    tick();
  }

  /** Show the clock, and come back just after its shown second changes (no creeping lag). */
  function tick() {
    clearTimeout(clockTimer);
    const { seconds, at, running } = clockBase;
    const now = running ? seconds + (performance.now() - at) / 1000 : seconds;
    root.querySelector("[data-stat=time]").textContent = clock(now);
    if (running) clockTimer = setTimeout(tick, 1010 - (now % 1) * 1000);
  }

  // The owner's presence runs the clock (presence.js); a watcher takes the time again when the
  // tab comes back in sight (its timers slept).
  const leaveTable = spectating ? null : attendTable(initial.id, {
    live: () => isLive(board.state) && Boolean(board.state.first_move_at),
    onClock: (state) => state.version === board.state.version && showClock(state),
  });
  async function onVisible() {
    if (!spectating || document.visibilityState !== "visible" || !isLive(board.state)) return;
    tick();
    const fresh = await get(`/games/${initial.id}`).catch(() => null);
    if (fresh?.version === board.state.version) showClock(fresh);
  }
  document.addEventListener("visibilitychange", onVisible);

  /** Abandon the game (a loss in the statistics); true once the server says it is over. */
  async function abandon() {
    await board.send(CLIENT.RESIGN, {});
    return board.state.status !== "active";
  }

  async function resign() {
    const choice = await ask(gettext("Resign this game?"),
      gettext("It counts as a loss in your statistics and cannot be resumed."),
      [{ label: gettext("Resign"), value: "resign", kind: "danger" }]);
    if (choice) await abandon();
  }

  /**
   * A new deal; an unfinished game you own is resigned or kept for later (parked: its clock
   * stops as the table is left), as you choose. An untouched one is replaced.
   */
  async function newGame() {
    const mine = !spectating && board.state.status === "active";
    if (mine && board.state.move_count > 0) {
      const choice = await ask(gettext("This game is not finished"),
        gettext("Keep it for later (it waits in My games) or resign it (it counts as a loss)?"),
        [{ label: gettext("Resign it"), value: "resign", kind: "danger" },
          { label: gettext("Keep it for later"), value: "keep", kind: "primary" }]);
      if (!choice || (choice === "resign" && !(await abandon()))) return;
    }
    newGameDialog(ctx, { replaces: mine && board.state.version === 0 ? board.state.id : undefined });
  }

  /** The code, or for a daily whose day runs (its code hidden: null) a word saying so. */
  function showCode(state) {
    const hidden = state.code === null;
    codeText.textContent = hidden ? gettext("hidden until the day closes") : state.code;
    copy.textContent = hidden ? gettext("Copy link") : gettext("Copy");
    // Its name is the word it shows (axe: label-content-name-mismatch); the title says more.
    copy.title = hidden ? gettext("Copy the link to this daily deal") : gettext("Copy the game code");
  }

  /** Copy the code; while a daily's code is hidden, the link to its day instead. */
  async function copyCode() {
    const { code, daily, rule } = board.state;
    const text = code ?? `${location.origin}/daily/${daily}${ruleQuery(rule)}`;
    try {
      await navigator.clipboard.writeText(text);
      ctx.notify(code ? interpolate(gettext("Copied %(code)s."), { code }, true) : gettext("Copied the link to this daily deal."));
    } catch {
      ctx.notify(code ? interpolate(gettext("The code is %(code)s."), { code }, true)
        : interpolate(gettext("The link to this daily deal is %(link)s."), { link: text }, true));
    }
  }

  const onKey = (event) => {
    if (event.target.closest("input, textarea, select, dialog")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      board.undo();
    } else if (event.key === "?" && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      showKeys();
    }
  };
  document.addEventListener("keydown", onKey);
  boardEl.addEventListener("focus", () => board.redraw());
  boardEl.addEventListener("blur", () => board.redraw());

  const socket = followGame(initial.id, {
    version: () => board.version(),
    onState: (state) => board.setState(state),
    onAssist: assistAnswered,
    onStatus(what, detail) {
      root.dataset.socket = what; // "open", "lost" or "limited": while open, the board's writes go on it
      ctx.banner(connectionBanner(what, detail));
    },
  });

  return () => {
    clearTimeout(clockTimer);
    leaveTable?.();
    messages.undock();
    leaving.abort();
    socket.close();
    board.destroy();
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
  };
}
