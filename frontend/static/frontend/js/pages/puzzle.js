// A puzzle (/puzzles/<id>): its board drawn by the table's renderer, a card picked by a click and
// placed by another (or chosen from the list of legal moves), the answer checked by the server.
// The feedback says the move in words; after the answer, the next puzzle, and once solved the
// analysis board on its position. The board only ever shows what the server sent: face-down
// cards stay counted, never named.
import { get, post } from "../api.js";
import { cardLabel, describeMove } from "../cards.js";
import { h } from "../dom.js";
import { contains } from "../geometry.js";
import { gettext, interpolate } from "../i18n.js";
import { click, targetsOf } from "../picking.js";
import { difficultyText, openNext, ratingMeaning, standingLine, taskText } from "../puzzles.js";
import { Renderer, redrawOnResize } from "../render.js";
import { ruleName } from "../variants.js";

const NOTHING = new Set();

export async function mount(root, ctx, _name, id) {
  let body;
  try {
    body = await get(`/puzzles/${id}`);
  } catch (error) {
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", {}, gettext("No such puzzle")), h("p", {}, error.message),
      h("a", { href: "/puzzles", "data-link": true }, gettext("Back to the puzzles"))));
    return null;
  }
  const { puzzle } = body;
  const start = puzzle.board;
  let board = start; // the position the player is at (after the answer's moves so far)
  let played = [];
  let picked = null; // the card held for the next click
  let shown = null; // {cards, to}: the answer's move, outlined after a wrong one
  let decided = false;

  const status = h("p", { class: "puzzle-status", role: "status", "aria-live": "polite" });
  const facts = h("p", { class: "puzzle-facts" },
    ruleName(puzzle.rule), " · ", difficultyText(puzzle.difficulty),
    puzzle.yours ? [" · ", h("span", { class: "puzzle-yours" }, gettext("From one of your games"))] : null);
  const meaning = h("p", { class: "puzzle-rating" }, ratingMeaning(puzzle));
  const standing = h("p", { class: "puzzle-standing" }, body.me ? standingLine(body.me) : null);
  const againButton = h("button", { type: "button", "data-action": "again", hidden: true, onclick: restart }, gettext("Try again"));
  const nextButton = ctx.me
    ? h("button", { type: "button", class: "primary", "data-action": "next-puzzle", onclick: () => openNext(ctx, status) }, gettext("Next puzzle"))
    : null;
  // Once solved, the puzzle's position opens on the analysis board (pages/board.js).
  const boardButton = ctx.me
    ? h("button", { type: "button", "data-action": "open-board", hidden: true, onclick: openBoard }, gettext("Open board"))
    : null;
  const actions = h("div", { class: "actions" },
    againButton, boardButton, h("a", { href: "/puzzles", "data-link": true, class: "button" }, gettext("All puzzles")), nextButton);
  const moveList = h("ul", { class: "puzzle-moves" });
  const moves = h("details", { class: "puzzle-moves-box" }, h("summary", {}, gettext("Choose from the legal moves")), moveList);
  const panel = h("section", { class: "panel puzzle" },
    h("h1", {}, taskText(puzzle.moves_to_find)), facts, meaning, status, actions, moves, standing);
  const boardEl = h("div", { class: "board puzzle-board", role: "group", "aria-label": gettext("The puzzle's table: pick a card, then where it goes") });
  root.replaceChildren(panel, boardEl);

  const renderer = new Renderer(boardEl);
  const draw = () => {
    const top = boardEl.getBoundingClientRect().top + window.scrollY;
    const marked = shown ?? (picked ? { cards: [picked], to: null } : null);
    renderer.draw({
      state: board,
      width: boardEl.clientWidth,
      height: Math.max(window.innerHeight - top, 320),
      highlights: shown ? new Set([shown.to]) : picked ? targetsOf(board.legal_moves, picked) : NOTHING,
      marks: marked ? { suit: marked.cards[0].slice(-1) } : {},
      cursor: null,
      picked: marked ? new Set(marked.cards) : NOTHING,
    });
    boardEl.dataset.picked = picked ?? "";
  };

  function say(text, kind = "") {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function drawMoves() {
    moves.hidden = decided;
    moveList.replaceChildren(...(decided ? [] : board.legal_moves.map((move) =>
      h("li", {}, h("button", { type: "button", "data-move": move, onclick: () => submit(move) }, describeMove(move, board).text)))));
  }

  function solved() {
    if (boardButton) boardButton.hidden = false;
  }

  async function openBoard() {
    try {
      const board = await post(`/puzzles/${puzzle.id}/board`);
      ctx.navigate(`/board/${board.key}`);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  function restart() {
    board = start;
    played = [];
    picked = null;
    shown = null;
    decided = false;
    againButton.hidden = true;
    delete panel.dataset.outcome;
    say(gettext("Practice: your first answer was the rated one. Pick a card, then where it goes."));
    drawMoves();
    draw();
  }

  async function submit(move) {
    if (decided) return;
    picked = null;
    let answer;
    try {
      answer = await post(`/puzzles/${puzzle.id}/attempts`, { moves: [...played, move] });
    } catch (error) {
      ctx.notify(error.message, "error", error.code, error.rule);
      draw();
      return;
    }
    const yours = describeMove(move, board).text;
    if (answer.outcome === "continue") {
      played = [...played, move];
      board = answer.board;
      say(interpolate(gettext("%(move)s: right. Now the next move."), { move: yours }, true), "right");
    } else {
      decided = true;
      againButton.hidden = false;
      panel.dataset.outcome = answer.outcome;
      if (answer.outcome === "solved") {
        solved();
        say(interpolate(gettext("%(move)s: solved! It was the only move that keeps the win."), { move: yours }, true), "solved");
      } else {
        shown = describeMove(answer.solution[answer.step], board);
        say(interpolate(gettext("%(move)s loses: after it the game can no longer be won. The move that keeps the win: %(right)s."),
          { move: yours, right: shown.text }, true), "wrong");
      }
      if (answer.rated && body.me) {
        standing.replaceChildren(standingLine({ ...body.me, rating: answer.rating_after, streak: answer.streak, daily_streak: answer.daily_streak }));
      }
      ctx.announce(status.textContent);
    }
    drawMoves();
    draw();
  }

  /** A click on the board: the face-up card under it, and the column or foundation there. */
  function onClick(event) {
    const layout = renderer.layout;
    if (decided || !layout) return;
    const rect = boardEl.getBoundingClientRect();
    const point = { x: event.clientX - rect.left, y: event.clientY - rect.top };
    const card = event.target.closest(".card.face-up")?.dataset.card ?? null;
    const place = card ? layout.cards.find((c) => c.id === card) : null;
    let target = place ? (place.foundation !== undefined ? "F" : place.col) : null;
    if (target === null) {
      const under = layout.targets.find((t) => contains(t.rect, point));
      target = under ? (under.kind === "foundation" ? "F" : under.col) : null;
    }
    const next = click(board.legal_moves, picked, { card, target });
    picked = next.picked;
    if (next.move) {
      submit(next.move);
      return;
    }
    if (next.refused) {
      say(picked ? gettext("That card cannot go there: pick a highlighted place, or another card.")
        : gettext("That card has nowhere to go: pick another one."), "refused");
    } else if (picked) {
      say(interpolate(gettext("%(card)s picked: now choose where it goes."), { card: cardLabel(picked) }, true));
    }
    draw();
  }

  boardEl.addEventListener("click", onClick);
  const stopRedrawing = redrawOnResize(draw, panel);
  if (puzzle.answered) {
    decided = true;
    againButton.hidden = false;
    const right = describeMove(puzzle.answered.solution[0], start).text;
    if (puzzle.answered.correct) solved();
    say(puzzle.answered.correct
      ? interpolate(gettext("You solved this puzzle: %(right)s."), { right }, true)
      : interpolate(gettext("You missed this puzzle. The move that keeps the win: %(right)s."), { right }, true));
  } else {
    say(gettext("Pick a card, then where it goes."));
  }
  drawMoves();
  draw();
  return stopRedrawing;
}
