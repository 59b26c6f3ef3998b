// Keyboard play: a cursor over columns and foundations, pick a card, choose where it goes.
// Pure: `keyAction` returns the next cursor and the intent to send; the board sends it.
import { locate } from "./cards.js";

/** cursor: {col: 1-7, card} on the tableau or {foundation: 0-3, card} on the top row. */
export function startCursor(state) {
  return columnCursor(state, 1);
}

function columnCursor(state, col) {
  const faceUp = state.columns[col - 1].face_up;
  return { col, card: faceUp.length ? faceUp[faceUp.length - 1] : null };
}

function foundationCursor(state, index) {
  return { foundation: index, card: state.foundations[index].top };
}

/** Keep the cursor valid after the state changed under it. */
export function refreshCursor(state, cursor) {
  if (!cursor) return startCursor(state);
  if (cursor.foundation !== undefined) return foundationCursor(state, cursor.foundation);
  const place = cursor.card ? locate(state, cursor.card) : null;
  if (place?.where === "column") return { col: place.col + 1, card: cursor.card };
  return columnCursor(state, cursor.col);
}

function step(state, cursor, key) {
  if (cursor.foundation !== undefined) {
    if (key === "ArrowLeft") return foundationCursor(state, Math.max(0, cursor.foundation - 1));
    if (key === "ArrowRight") return foundationCursor(state, Math.min(3, cursor.foundation + 1));
    if (key === "ArrowDown") return columnCursor(state, cursor.foundation + 4);
    return cursor;
  }
  if (key === "ArrowLeft") return columnCursor(state, Math.max(1, cursor.col - 1));
  if (key === "ArrowRight") return columnCursor(state, Math.min(7, cursor.col + 1));
  const faceUp = state.columns[cursor.col - 1].face_up;
  const index = cursor.card ? faceUp.indexOf(cursor.card) : -1;
  if (key === "ArrowUp") {
    if (index > 0) return { col: cursor.col, card: faceUp[index - 1] };
    return foundationCursor(state, Math.max(0, cursor.col - 4));
  }
  if (key === "ArrowDown" && index >= 0 && index < faceUp.length - 1) {
    return { col: cursor.col, card: faceUp[index + 1] };
  }
  return cursor;
}

const ARROWS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]);

/**
 * One key press. kb: {cursor, picked: card|null}. Returns {kb, intent?, handled} where an intent
 * is {kind: "move", move} | {kind: "tap", card} | {kind: "double-click", card} | {kind: "finish"}
 * (F with nothing picked up, once the server offers Finish: `can_finish`).
 */
export function keyAction(key, kb, state) {
  const cursor = kb.cursor ?? startCursor(state);
  if (ARROWS.has(key)) return { kb: { ...kb, cursor: step(state, cursor, key) }, handled: true };
  if (key === "Escape") return { kb: { ...kb, picked: null }, handled: kb.picked !== null };
  if (kb.picked) {
    const drop = (to) => ({ kb: { cursor, picked: null }, intent: { kind: "move", move: `${kb.picked}>${to}` }, handled: true });
    if (/^[1-7]$/.test(key)) return drop(key);
    if (key === "f" || key === "F") return drop("F");
    if (key === "Enter" || key === " ") {
      if (cursor.card === kb.picked) return { kb: { cursor, picked: null }, handled: true };
      return drop(cursor.foundation !== undefined ? "F" : String(cursor.col));
    }
    return { kb, handled: false };
  }
  if ((key === "f" || key === "F") && state.can_finish) return { kb: { ...kb, cursor }, intent: { kind: "finish" }, handled: true };
  if (!cursor.card) return { kb: { ...kb, cursor }, handled: false };
  if (key === "Enter" || key === " ") return { kb: { cursor, picked: cursor.card }, handled: true };
  if (key === "t" || key === "T") return { kb: { ...kb, cursor }, intent: { kind: "tap", card: cursor.card }, handled: true };
  if (key === "d" || key === "D") {
    return { kb: { ...kb, cursor }, intent: { kind: "double-click", card: cursor.card }, handled: true };
  }
  return { kb, handled: false };
}
