// The table: info bar, controls, the board, the new game dialog, the win screen, live updates.
import { get, post } from "../api.js";
import { Board } from "../board.js";
import { clock, field, h } from "../dom.js";
import { DEFAULT_SETTINGS } from "../session.js";
import { followGame } from "../socket.js";

const RULE_NAMES = { C: "Classic", R: "Relaxed" };

/** Routes "home", "game" and "watch" all land here. */
export async function mount(root, ctx, name, gameId) {
  if (name === "home") return home(root, ctx);
  let state;
  try {
    state = await get(`/games/${gameId}`);
  } catch (error) {
    root.replaceChildren(h("h1", {}, "Game not found"), h("p", {}, error.message));
    return null;
  }
  const spectating = name === "watch" || ctx.me?.username !== state.owner;
  return table(root, ctx, state, spectating);
}

async function home(root, ctx) {
  if (!ctx.me) {
    root.replaceChildren(
      h("section", { class: "landing" },
        h("h1", {}, "Yukon Solitaire"),
        h("p", {}, "Every move checked by the server, every game replayable, friends watching live."),
        h("p", {}, h("a", { href: "/signup", "data-link": true, class: "button" }, "Sign up to play"), " ",
          h("a", { href: "/login", "data-link": true }, "Log in"), " or ",
          h("a", { href: "/watch", "data-link": true }, "watch live games")),
      ),
    );
    return null;
  }
  const page = await get("/games?status=active&page_size=1");
  if (page.results.length) {
    ctx.navigate(`/game/${page.results[0].id}`, { replace: true });
    return null;
  }
  root.replaceChildren(h("section", { class: "landing" }, h("h1", {}, "Ready for a deal?")));
  newGameDialog(ctx, { cancellable: false });
  return null;
}

/** The new game dialog: Classic or Relaxed, random or a typed code; code errors inline. */
export function newGameDialog(ctx, { cancellable = true } = {}) {
  const code = h("input", { name: "code", autocomplete: "off", spellcheck: "false", placeholder: "e.g. YU1-C-AAAAAAB", "aria-describedby": "new-game-error" });
  const error = h("p", { id: "new-game-error", class: "field-error", role: "alert" });
  const radio = (value, label, checked) =>
    h("label", { class: "choice" }, h("input", { type: "radio", name: "rule", value, checked }), label);
  const dialog = h("dialog", { class: "dialog", "aria-labelledby": "new-game-title" },
    h("form", { method: "dialog" },
      h("h2", { id: "new-game-title" }, "New game"),
      h("fieldset", {}, h("legend", {}, "Rules"),
        radio("C", "Classic (red on black)", true), radio("R", "Relaxed (any colour)", false)),
      field("Deal code (leave empty for a random deal)", code),
      error,
      h("div", { class: "actions" },
        cancellable ? h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, "Cancel") : null,
        h("button", { type: "submit", class: "primary" }, "Deal")),
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
  if (!cancellable) dialog.addEventListener("cancel", (event) => event.preventDefault());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

function stat(label, key) {
  return h("div", { class: "stat" }, h("span", { class: "label" }, label), h("span", { class: "value", "data-stat": key }));
}

function table(root, ctx, initial, spectating) {
  const settings = { ...DEFAULT_SETTINGS, ...(ctx.me?.settings ?? {}) };
  const codeText = h("span", { class: "value code", "data-stat": "code" });
  const copy = h("button", { type: "button", class: "icon", "aria-label": "Copy the game code", onclick: copyCode }, "Copy");
  const undoButton = h("button", { type: "button", "aria-label": "Undo the last move (Ctrl+Z)", onclick: () => board.undo() }, "Undo");
  const newButton = h("button", { type: "button", class: "primary", onclick: () => newGameDialog(ctx) }, "New game");
  const status = h("p", { class: "status", "data-stat": "status" });
  const info = h("section", { class: "infobar", "aria-label": "Game information" },
    stat("Time", "time"), stat("Moves", "moves"), stat("Score", "score"),
    h("div", { class: "stat code-stat" }, h("span", { class: "label" }, "Code"), codeText, copy),
    h("div", { class: "controls" }, spectating ? null : undoButton, ctx.me ? newButton : null),
  );
  const boardEl = h("div", { class: "board", tabindex: "0", role: "application",
    "aria-label": "Yukon table. Arrows move between cards, Enter picks a card up and puts it down, 1 to 7 or F choose where it goes, T taps, D double clicks, Ctrl+Z undoes." });
  root.replaceChildren(info, status, boardEl);

  let clockBase = { seconds: 0, at: 0, running: false };
  let shownWin = false;
  const board = new Board(boardEl, {
    settings,
    readOnly: spectating,
    notify: ctx.notify,
    announce: ctx.announce,
    onState(state) {
      clockBase = { seconds: state.elapsed_seconds, at: performance.now(), running: state.status === "active" && Boolean(state.first_move_at) };
      root.querySelector("[data-stat=moves]").textContent = state.move_count;
      root.querySelector("[data-stat=score]").textContent = state.score;
      codeText.textContent = state.code;
      undoButton.disabled = state.undo_depth === 0 || state.status !== "active";
      root.dataset.version = state.version;
      root.dataset.status = state.status;
      const who = spectating ? `Watching ${state.owner}` : "";
      const rule = `${RULE_NAMES[state.rule]} rules`;
      const over = state.status === "won" ? "Won" : state.status === "abandoned" ? "Abandoned" : "";
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

  async function copyCode() {
    try {
      await navigator.clipboard.writeText(board.state.code);
      ctx.notify(`Copied ${board.state.code}.`);
    } catch {
      ctx.notify(`The code is ${board.state.code}.`);
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
    onStatus: (what) => ctx.banner(what === "lost" ? "Connection lost. Reconnecting…" : null),
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
  const title = spectating ? `${state.owner} won!` : "You won!";
  const cheer = h("div", { class: "cheer", "aria-hidden": "true" },
    ["♠", "♥", "♦", "♣"].map((suit, i) => h("span", { style: `--i:${i}`, class: i % 3 ? "red" : "" }, suit)));
  const dialog = h("dialog", { class: "dialog win", "aria-labelledby": "win-title" },
    cheer,
    h("h2", { id: "win-title" }, title),
    h("p", { class: "result" }, `All 52 cards home in ${state.move_count} moves and ${clock(state.elapsed_seconds)}, score ${state.score}.`),
    h("p", {}, `Deal ${state.code}`),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, "See the table"),
      ctx.me ? h("button", { type: "button", class: "primary", onclick: () => { dialog.close(); newGameDialog(ctx); } }, "New game") : null),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
