// The table: info bar, controls, the board, the new game dialog, the win screen, live updates.
import { get, post } from "../api.js";
import { assistAnswered, assistButtons } from "../assists.js";
import { Board } from "../board.js";
import { clock, field, h } from "../dom.js";
import { DEFAULT_SETTINGS, startGuest } from "../session.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { followGame } from "../socket.js";

const RULE_NAMES = { C: gettext("Classic"), R: gettext("Relaxed") };

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

/** The new game dialog: Classic or Relaxed, random or a typed code; code errors inline. */
export function newGameDialog(ctx) {
  const code = h("input", { name: "code", autocomplete: "off", spellcheck: "false", placeholder: interpolate(gettext("e.g. %(code)s"), { code: "YU1-C-AAAAAAB" }, true), "aria-describedby": "new-game-error" });
  const error = h("p", { id: "new-game-error", class: "field-error", role: "alert" });
  const radio = (value, label, checked) =>
    h("label", { class: "choice" }, h("input", { type: "radio", name: "rule", value, checked }), label);
  const dialog = h("dialog", { class: "dialog", "aria-labelledby": "new-game-title" },
    h("form", { method: "dialog" },
      h("h2", { id: "new-game-title" }, gettext("New game")),
      h("fieldset", {}, h("legend", {}, gettext("Rules")),
        radio("C", gettext("Classic (red on black)"), true), radio("R", gettext("Relaxed (any colour)"), false)),
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
    const body = typed ? { code: typed } : { rule: dialog.querySelector("input[name=rule]:checked").value };
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

/**
 * A modal question: resolves to the chosen value, or null when dismissed (Cancel or Esc).
 * `choices` are {label, value, kind}, the last one the primary answer.
 */
function ask(title, text, choices) {
  return new Promise((resolve) => {
    let answer = null;
    const dialog = h("dialog", { class: "dialog ask", "aria-labelledby": "ask-title" },
      h("h2", { id: "ask-title" }, title),
      h("p", {}, text),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, gettext("Cancel")),
        choices.map(({ label, value, kind }) =>
          h("button", { type: "button", class: kind, "data-choice": value, onclick: () => { answer = value; dialog.close(); } }, label))),
    );
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

function stat(label, key) {
  return h("div", { class: "stat" }, h("span", { class: "label" }, label), h("span", { class: "value", "data-stat": key }));
}

function table(root, ctx, initial, spectating) {
  const settings = { ...DEFAULT_SETTINGS, ...(ctx.me?.settings ?? {}) };
  const codeText = h("span", { class: "value code", "data-stat": "code" });
  const copy = h("button", { type: "button", class: "icon", "aria-label": gettext("Copy the game code"), onclick: copyCode }, gettext("Copy"));
  const undoButton = h("button", { type: "button", "aria-label": gettext("Undo the last move (Ctrl+Z)"), onclick: () => board.undo() }, gettext("Undo"));
  const resignButton = h("button", { type: "button", class: "danger", "data-action": "resign", onclick: () => resign() }, gettext("Resign"));
  const newButton = h("button", { type: "button", class: "primary", onclick: () => newGame() }, gettext("New game"));
  const assists = spectating ? [] : assistButtons(ctx, () => board);
  const status = h("p", { class: "status", "data-stat": "status" });
  const info = h("section", { class: "infobar", "aria-label": gettext("Game information") },
    stat(gettext("Time"), "time"), stat(gettext("Moves"), "moves"), stat(gettext("Score"), "score"),
    h("div", { class: "stat code-stat" }, h("span", { class: "label" }, gettext("Code")), codeText, copy),
    h("div", { class: "controls" }, spectating ? null : undoButton, ...assists, spectating ? null : resignButton, ctx.me ? newButton : null),
  );
  // Messages sit over the info bar, their bottom on the board's top edge: they hide no card.
  const head = h("div", { class: "table-head" }, info, status);
  const boardEl = h("div", { class: "board", tabindex: "0", role: "application",
    "aria-label": gettext("Yukon table. Arrows move between cards, Enter picks a card up and puts it down, 1 to 7 or F choose where it goes, T taps, D double clicks, Ctrl+Z undoes.") });
  root.replaceChildren(head, boardEl);
  ctx.dockMessages(head);

  let clockBase = { seconds: 0, at: 0, running: false };
  let shownWin = false;
  const board = new Board(boardEl, {
    settings,
    readOnly: spectating,
    notify: ctx.notify,
    announce: ctx.announce,
    onState(state) {
      clockBase = { seconds: state.elapsed_seconds, at: performance.now(), running: state.status === "active" && Boolean(state.first_move_at) };
      root.querySelector("[data-stat=moves]").textContent = formatNumber(state.move_count);
      root.querySelector("[data-stat=score]").textContent = formatNumber(state.score);
      codeText.textContent = state.code;
      undoButton.disabled = state.undo_depth === 0 || state.status !== "active";
      resignButton.disabled = state.status !== "active";
      assists.forEach((button) => { button.disabled = state.status !== "active"; });
      root.dataset.version = state.version;
      root.dataset.status = state.status;
      const who = spectating ? interpolate(gettext("Watching %(name)s"), { name: state.owner }, true) : "";
      const rule = interpolate(gettext("%(rule)s rules"), { rule: RULE_NAMES[state.rule] }, true);
      const over = state.status === "won" ? gettext("Won") : state.status === "abandoned" ? gettext("Abandoned") : "";
      status.textContent = [who, rule, over].filter(Boolean).join(" · ");
      tick();
      if (state.status === "won" && !shownWin) {
        shownWin = true;
        celebrate(ctx, state, spectating);
      }
    },
  });
  board.setState(initial);
  board.draw();

  function tick() {
    const { seconds, at, running } = clockBase;
    const now = running ? seconds + (performance.now() - at) / 1000 : seconds;
    root.querySelector("[data-stat=time]").textContent = clock(now);
  }
  const timer = setInterval(tick, 1000);

  /** Abandon the game (a loss in the statistics); true once the server says it is over. */
  async function abandon() {
    await board.send("abandon", {});
    return board.state.status !== "active";
  }

  async function resign() {
    const choice = await ask(gettext("Resign this game?"),
      gettext("It counts as a loss in your statistics and cannot be resumed."),
      [{ label: gettext("Resign"), value: "resign", kind: "danger" }]);
    if (choice) await abandon();
  }

  /** A new deal; an unfinished game you own is resigned or kept for later, as you choose. */
  async function newGame() {
    if (!spectating && board.state.status === "active" && board.state.move_count > 0) {
      const choice = await ask(gettext("This game is not finished"),
        gettext("Keep it for later (it waits in My games) or resign it (it counts as a loss)?"),
        [{ label: gettext("Resign it"), value: "resign", kind: "danger" },
          { label: gettext("Keep it for later"), value: "keep", kind: "primary" }]);
      if (!choice || (choice === "resign" && !(await abandon()))) return;
    }
    newGameDialog(ctx);
  }

  async function copyCode() {
    try {
      await navigator.clipboard.writeText(board.state.code);
      ctx.notify(interpolate(gettext("Copied %(code)s."), { code: board.state.code }, true));
    } catch {
      ctx.notify(interpolate(gettext("The code is %(code)s."), { code: board.state.code }, true));
    }
  }

  const onKey = (event) => {
    if (event.target.closest("input, textarea, dialog")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      board.undo();
    }
  };
  document.addEventListener("keydown", onKey);
  boardEl.addEventListener("focus", () => board.redraw());
  boardEl.addEventListener("blur", () => board.redraw());

  const socket = followGame(initial.id, {
    version: () => board.version(),
    onState: (state) => board.setState(state),
    onAssist: assistAnswered,
    onStatus: (what) => ctx.banner(what === "lost" ? gettext("Connection lost. Reconnecting…") : null),
  });

  return () => {
    clearInterval(timer);
    socket.close();
    board.destroy();
    document.removeEventListener("keydown", onKey);
    document.querySelector("dialog.win")?.remove();
  };
}

function celebrate(ctx, state, spectating) {
  const title = spectating ? interpolate(gettext("%(name)s won!"), { name: state.owner }, true) : gettext("You won!");
  const cheer = h("div", { class: "cheer", "aria-hidden": "true" },
    ["♠", "♥", "♦", "♣"].map((suit, i) => h("span", { style: `--i:${i}`, class: i % 3 ? "red" : "" }, suit)));
  const dialog = h("dialog", { class: "dialog win", "aria-labelledby": "win-title" },
    cheer,
    h("h2", { id: "win-title" }, title),
    h("p", { class: "result" }, interpolate(ngettext("All 52 cards home in %(moves)s move and %(time)s, score %(score)s.",
      "All 52 cards home in %(moves)s moves and %(time)s, score %(score)s.", state.move_count),
      { moves: formatNumber(state.move_count), time: clock(state.elapsed_seconds), score: formatNumber(state.score) }, true)),
    h("p", {}, interpolate(gettext("Deal %(code)s"), { code: state.code }, true)),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, gettext("See the table")),
      ctx.me ? h("button", { type: "button", class: "primary", onclick: () => { dialog.close(); newGameDialog(ctx); } }, gettext("New game")) : null),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
