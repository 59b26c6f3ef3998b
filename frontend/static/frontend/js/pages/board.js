// The analysis board (/board/<key>): a position drawn by the table's renderer, moves tried
// freely (a card picked then placed, or chosen from the list of legal moves the server sent),
// undone within the board, each legal move marked with the solver's verdict in words and a
// sign (keeps the win, loses the win, not known yet) as the server's judging fills them in,
// the winning line one click away, and a link that shares the position. No game is made:
// every position is a key the server names; the browser decides no rule.
import { get, post } from "../api.js";
import { cardLabel, describeMove } from "../cards.js";
import { h } from "../dom.js";
import { contains } from "../geometry.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";
import { click, targetsOf } from "../picking.js";
import { Renderer, redrawOnResize } from "../render.js";
import { ruleName } from "../variants.js";

const NOTHING = new Set();
const ASK_AGAIN_MS = 700;

const VERDICTS = () => ({
  "keeps-win": { sign: "✓", words: gettext("keeps the win") },
  "loses-win": { sign: "✗", words: gettext("loses the win") },
  unknown: { sign: "?", words: gettext("not known yet") },
});

export async function mount(root, ctx, _name, firstKey) {
  const shown = () => !ctx.signal.aborted;
  let position;
  try {
    position = await get(`/positions/${firstKey}`);
  } catch (error) {
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", {}, gettext("No analysis board")), h("p", {}, error.message),
      h("a", { href: "/games", "data-link": true }, gettext("Back to my games"))));
    return null;
  }
  if (!shown()) return null;
  let trail = []; // the positions before this one on this board: undo goes back to them
  let judged = null; // the verdicts of the position shown
  let line = []; // the winning line from here, once known
  let picked = null;
  let asking = 0; // which position's verdicts are being asked for (a later move stops it)
  const canPlay = Boolean(ctx.me); // a shared link shows anyone the position; moves need a player

  const status = h("p", { class: "board-status", role: "status", "aria-live": "polite" });
  const facts = h("p", { class: "board-facts" });
  const undoButton = h("button", { type: "button", "data-action": "undo", onclick: undo }, gettext("Undo"));
  const lineButton = h("button", { type: "button", class: "primary", "data-action": "line", onclick: showLine }, gettext("Show the winning line"));
  const followButton = h("button", { type: "button", "data-action": "follow", hidden: true, onclick: follow }, gettext("Play the line's next move"));
  const share = h("a", { class: "board-share", "data-action": "share" }, gettext("Link to this position"));
  const actions = h("div", { class: "actions" }, undoButton, lineButton, followButton);
  const lineBox = h("ol", { class: "board-line", hidden: true, tabindex: "0", "aria-label": gettext("The winning line") });
  const moveList = h("ul", { class: "board-moves", "aria-label": gettext("Every legal move and the solver's verdict") });
  const legend = h("p", { class: "board-legend" },
    Object.values(VERDICTS()).map(({ sign, words }) => h("span", {}, h("span", { class: "sign", "aria-hidden": "true" }, sign), " ", words)));
  const signIn = canPlay ? null : h("p", { class: "note" }, h("a", { href: "/login", "data-link": true }, gettext("Sign in to try moves on this board.")));
  const panel = h("section", { class: "panel board-panel" },
    h("h1", {}, gettext("Analysis board")), facts, status, signIn, actions, lineBox,
    h("h2", {}, gettext("Legal moves")), legend, moveList, h("p", {}, share));
  const boardEl = h("div", { class: "board analysis-board", role: "group", "aria-label": gettext("The board: pick a card, then where it goes") });
  root.replaceChildren(panel, boardEl);

  const renderer = new Renderer(boardEl);
  const draw = () => {
    const top = boardEl.getBoundingClientRect().top + window.scrollY;
    renderer.draw({
      state: position,
      width: boardEl.clientWidth,
      height: Math.max(window.innerHeight - top, 320),
      highlights: picked ? targetsOf(position.legal_moves, picked) : NOTHING,
      marks: picked ? { suit: picked.slice(-1) } : {},
      cursor: null,
      picked: picked ? new Set([picked]) : NOTHING,
    });
  };

  function say(text) {
    status.textContent = text;
  }

  /** The position's moves with their verdicts (all "not known yet" before the first answer). */
  function drawMoves() {
    const words = VERDICTS();
    const verdictOf = new Map((judged?.moves ?? []).map((entry) => [entry.move, entry.verdict]));
    moveList.replaceChildren(...position.legal_moves.map((move) => {
      const verdict = verdictOf.get(move) ?? "unknown";
      const { sign, words: said } = words[verdict];
      return h("li", {}, h("button", { type: "button", class: `board-move ${verdict}`, "data-move": move, "data-verdict": verdict, disabled: !canPlay, onclick: () => play(move) },
        h("span", { class: "sign", "aria-hidden": "true" }, sign), " ", describeMove(move, position).text,
        h("span", { class: "verdict-words" }, ` — ${said}`)));
    }));
    panel.dataset.judging = judged?.status ?? "pending";
  }

  function drawLine() {
    const known = line.length > 0;
    lineButton.disabled = !known && judged?.status === "done";
    followButton.hidden = lineBox.hidden || !known || !canPlay;
    if (lineBox.hidden) return;
    lineBox.replaceChildren(...(known
      ? [h("li", {}, describeMove(line[0], position).text), ...line.slice(1).map((move) => h("li", { class: "notation" }, move))]
      : [h("li", {}, judged?.status === "done" ? gettext("No winning line from here.") : gettext("The solver is still looking…"))]));
  }

  function showPosition() {
    picked = null;
    undoButton.disabled = trail.length === 0;
    facts.replaceChildren(ruleName(position.rule), " · ",
      interpolate(gettext("Cards on the foundations: %(count)s"), { count: formatNumber(position.cards_on_foundations) }, true),
      ...(position.code ? [" · ", gettext("Deal code:"), " ", h("code", {}, position.code)] : []));
    const href = `/board/${position.key}`;
    share.href = href;
    share.title = `${location.origin}${href}`;
    if (location.pathname !== href) history.replaceState(history.state, "", href);
    panel.dataset.key = position.key;
    if (position.won) say(gettext("Won: every card is home."));
    else say(canPlay ? gettext("Try a move: pick a card, then where it goes, or choose one below.") : "");
    drawMoves();
    drawLine();
    draw();
    followVerdicts();
  }

  /** Ask for the verdicts until every move is judged (or another position is shown). */
  async function followVerdicts() {
    const mine = ++asking;
    const key = position.key;
    while (shown() && mine === asking) {
      let answer;
      try {
        answer = await get(`/positions/${key}/moves`);
      } catch (error) {
        ctx.notify(error.message, "error", error.code);
        return;
      }
      if (!shown() || mine !== asking) return;
      judged = answer;
      if (answer.line.length) line = answer.line;
      drawMoves();
      drawLine();
      if (answer.status === "done") return;
      await new Promise((resolve) => setTimeout(resolve, ASK_AGAIN_MS));
    }
  }

  async function play(move) {
    picked = null;
    let child;
    try {
      child = await post(`/positions/${position.key}/moves`, { move });
    } catch (error) {
      ctx.notify(error.message, "error", error.code, error.rule);
      draw();
      return;
    }
    const said = describeMove(move, position).text;
    // Along the line, its rest is a winning line from the child until the child's own arrives.
    const rest = line[0] === move ? line.slice(1) : [];
    trail = [...trail, position];
    position = child;
    judged = null;
    line = rest;
    showPosition();
    if (!position.won) say(interpolate(gettext("Played %(move)s."), { move: said }, true));
  }

  function undo() {
    if (!trail.length) return;
    position = trail.at(-1);
    trail = trail.slice(0, -1);
    judged = null;
    line = [];
    showPosition();
    say(gettext("Move undone."));
  }

  function showLine() {
    lineBox.hidden = false;
    drawLine();
  }

  function follow() {
    if (line.length) play(line[0]);
  }

  /** A click on the board: the face-up card under it, and the column or foundation there. */
  function onClick(event) {
    const layout = renderer.layout;
    if (!layout || !canPlay) return;
    const rect = boardEl.getBoundingClientRect();
    const point = { x: event.clientX - rect.left, y: event.clientY - rect.top };
    const card = event.target.closest(".card.face-up")?.dataset.card ?? null;
    const place = card ? layout.cards.find((c) => c.id === card) : null;
    let target = place ? (place.foundation !== undefined ? "F" : place.col) : null;
    if (target === null) {
      const under = layout.targets.find((t) => contains(t.rect, point));
      target = under ? (under.kind === "foundation" ? "F" : under.col) : null;
    }
    const next = click(position.legal_moves, picked, { card, target });
    picked = next.picked;
    if (next.move) {
      play(next.move);
      return;
    }
    if (next.refused) {
      say(picked ? gettext("That card cannot go there: pick a highlighted place, or another card.")
        : gettext("That card has nowhere to go: pick another one."));
    } else if (picked) {
      say(interpolate(gettext("%(card)s picked: now choose where it goes."), { card: cardLabel(picked) }, true));
    }
    draw();
  }

  boardEl.addEventListener("click", onClick);
  // The header too: its height settles after the page's first draw (the account menu, fonts).
  const stopRedrawing = redrawOnResize(draw, panel, document.getElementById("top"));
  showPosition();
  return () => {
    asking += 1;
    stopRedrawing();
  };
}
