// Card text helpers for display only (names, colours, positions): never a rule.
import { gettext, interpolate } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
const SUIT_NAMES = { S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs") };
const RANK_NAMES = { A: gettext("Ace"), J: gettext("Jack"), Q: gettext("Queen"), K: gettext("King") };

/** Split "10D" into {rank: "10", suit: "D"}. */
export function parseCard(text) {
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** A screen-reader name, e.g. "10 of diamonds". */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[rank] ?? rank, suit: SUIT_NAMES[suit] }, true);
}

export function suitName(suit) {
  return SUIT_NAMES[suit];
}

/** Where a card lies in a public state: a column (with its index) or a foundation top. */
export function locate(state, card) {
  for (let col = 0; col < state.columns.length; col++) {
    const index = state.columns[col].face_up.indexOf(card);
    if (index >= 0) return { where: "column", col, index };
  }
  const f = state.foundations.findIndex((found) => found.top === card);
  return f >= 0 ? { where: "foundation", index: f } : null;
}

/** The card and everything lying on it (the group a drag carries). */
export function groupOf(state, card) {
  const place = locate(state, card);
  if (!place) return [];
  if (place.where === "foundation") return [card];
  return state.columns[place.col].face_up.slice(place.index);
}

/** Whether the card is the last card of its column (a tap target). */
export function isLastInColumn(state, card) {
  const place = locate(state, card);
  return place?.where === "column" && place.index === state.columns[place.col].face_up.length - 1;
}
