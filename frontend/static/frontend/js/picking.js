// Click to pick, click to place: what a click on a puzzle's board means, read from the server's
// legal moves (never a rule). A click names a card (`card`) and the place under it (`target`: a
// column 1-7 or "F"); the first click picks a card that has somewhere to go, the second places it.
import { destinations } from "./state.js";

/** The places `card` may go ("F" and columns 1-7), as the renderer outlines them. */
export function targetsOf(legalMoves, card) {
  const found = destinations(legalMoves, card);
  const targets = new Set(found.columns);
  if (found.foundation) targets.add("F");
  return targets;
}

function movable(legalMoves, card) {
  return Boolean(card) && legalMoves.some((move) => move.startsWith(`${card}>`));
}

/**
 * The next step of picking: {picked, move?, refused?}. `picked` is the card held after the
 * click (null: none); `move` is the chosen move ("7D>3"); `refused` says the click placed the
 * held card where no legal move goes (it stays held), or picked a card with nowhere to go.
 */
export function click(legalMoves, picked, hit) {
  if (!picked) {
    return movable(legalMoves, hit.card) ? { picked: hit.card } : { picked: null, refused: Boolean(hit.card) };
  }
  if (hit.card === picked) return { picked: null };
  if (hit.target !== undefined && hit.target !== null) {
    const move = `${picked}>${hit.target}`;
    if (legalMoves.includes(move)) return { picked: null, move };
  }
  if (movable(legalMoves, hit.card)) return { picked: hit.card };
  return { picked, refused: true };
}
