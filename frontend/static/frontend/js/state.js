// Reading the server's state: destinations from legal_moves, and what changed between states.
import { gettext, interpolate, ngettext } from "./i18n.js";

/** The destinations the server allows for `card`: {columns: Set<number 1-7>, foundation}. */
export function destinations(legalMoves, card) {
  const columns = new Set();
  let foundation = false;
  const prefix = `${card}>`;
  for (const move of legalMoves) {
    if (!move.startsWith(prefix)) continue;
    const to = move.slice(prefix.length);
    if (to === "F") foundation = true;
    else columns.add(Number(to));
  }
  return { columns, foundation };
}

/**
 * Whether the drop `target` ({kind, col}) under a dragged `card` accepts it, read from the
 * server's legal moves; with auto placement the server picks the column, so any destination
 * will do.
 */
export function accepts(legalMoves, card, target, autoPlacement = false) {
  const found = destinations(legalMoves, card);
  if (autoPlacement) return found.foundation || found.columns.size > 0;
  return target.kind === "foundation" ? found.foundation : found.columns.has(target.col);
}

/** The place of every visible card: "c<col>" or "f<index>", keyed by card text. */
export function placesOf(state) {
  const places = new Map();
  state.columns.forEach((column, col) => {
    for (const card of column.face_up) places.set(card, `c${col + 1}`);
  });
  state.foundations.forEach((found, index) => {
    if (found.top) places.set(found.top, `f${index}`);
  });
  return places;
}

/**
 * What changed from `prev` to `next`: cards that moved (with from/to places), columns whose
 * face-down count changed (a card turned up or was turned back by an undo), and the cards that
 * turned face up.
 */
export function diffStates(prev, next) {
  const before = prev ? placesOf(prev) : new Map();
  const after = placesOf(next);
  const moved = [];
  for (const [card, to] of after) {
    const from = before.get(card);
    if (from !== undefined && from !== to) moved.push({ card, from, to });
  }
  const turned = [];
  const revealed = [];
  if (prev) {
    next.columns.forEach((column, col) => {
      const before = prev.columns[col].face_down;
      if (column.face_down !== before) turned.push(col + 1);
      if (column.face_down < before && column.face_up.length) revealed.push(column.face_up[0]);
    });
  }
  return { moved, turned, revealed };
}

/** Short sentences describing a change, for the screen-reader live region: the move, then
 * the card it turned face up. */
export function describeChange(diff, nameOf) {
  const turnedUp = (diff.revealed ?? []).map((card) => interpolate(gettext("%(card)s turned face up."), { card: nameOf(card) }, true));
  return [describeMove(diff, nameOf), ...turnedUp].filter(Boolean).join(" ");
}

function describeMove(diff, nameOf) {
  if (!diff.moved.length) return "";
  const first = diff.moved[0];
  const home = first.to.startsWith("f");
  const values = { card: nameOf(first.card), column: first.to.slice(1), count: diff.moved.length - 1 };
  if (diff.moved.length > 1) {
    const fmt = home
      ? ngettext("%(card)s with %(count)s more to its foundation.", "%(card)s with %(count)s more to its foundation.", values.count)
      : ngettext("%(card)s with %(count)s more to column %(column)s.", "%(card)s with %(count)s more to column %(column)s.", values.count);
    return interpolate(fmt, values, true);
  }
  return interpolate(home ? gettext("%(card)s to its foundation.") : gettext("%(card)s to column %(column)s."), values, true);
}
