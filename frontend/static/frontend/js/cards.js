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

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A card as the table's messages write it: "10♦". */
export function cardLabel(text) {
  const { rank, suit } = parseCard(text);
  return `${rank}${SUIT_SYMBOLS[suit]}`;
}

/**
 * A move of the notation ("7D>3", "AS>F") in words, from the public board before it: where the
 * card goes ("7♦ onto 8♣", "K♠ to the empty column 4", "A♠ to its foundation"), and the cards
 * that move with it and where they go (a column 1-7 or "F", as the renderer marks targets).
 * Display only: the server decided the move was legal.
 */
export function describeMove(move, board) {
  const [card, to] = move.split(">");
  const cards = groupOf(board, card);
  const moved = cards.length ? cards : [card];
  if (to === "F") {
    return { cards: moved, to: "F", text: interpolate(gettext("%(card)s to its foundation"), { card: cardLabel(card) }, true) };
  }
  const column = Number(to);
  const top = board.columns[column - 1]?.face_up.at(-1);
  const text = top
    ? interpolate(gettext("%(card)s onto %(target)s"), { card: cardLabel(card), target: cardLabel(top) }, true)
    : interpolate(gettext("%(card)s to the empty column %(column)s"), { card: cardLabel(card), column }, true);
  return { cards: moved, to: column, text };
}
