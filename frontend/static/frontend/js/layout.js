// Board layout: card size, column and foundation places, and the fan of each column, all from
// the space the viewport gives the board, so the whole table (foundations and the longest column
// included) fits the visible height and every face-up card keeps its rank and suit readable.

export const ASPECT = 1.4;
export const MIN_CARD_W = 40;
export const MAX_CARD_W = 170;
const MIN_GAP = 3;
const DOWN_FAN = 0.12; // share of a card's height a face-down card shows when there is room
const MIN_DOWN_FAN = 0.05; // face-down cards may overlap down to this
const UP_FAN = 0.3; // share of a card's height a face-up card shows when there is room
/** Share of a card's width the corner index (rank and pip, drawn by app.css) takes from the top. */
export const INDEX_STRIP = 0.36;
/** The deal's tallest column: a fresh table is sized to show it with the roomy fans. */
const DEAL_COLUMN = { down: 6, up: 5 };
/**
 * Where the width sets the card size (a phone held upright) the height left over grows the
 * roomy strips, at most GROW times, as far as a long column (REACH: a king-to-ace run on six
 * face-down cards) still shows them: more of every card, never a smaller card.
 */
const REACH = { down: 6, up: 13 };
const GROW = 1.8;

/**
 * Card width, height, gap and strips for a card `cardW` wide: `down`/`up` are the roomy strips a
 * face-down/face-up card shows, `minDown`/`minUp` the tightest (a face-up card's rank and suit).
 */
export function cardMetrics(cardW, gapShare = ARRANGEMENTS.side.gapShare) {
  const cardH = Math.round(cardW * ASPECT);
  return {
    cardW,
    cardH,
    gap: Math.max(MIN_GAP, Math.round(cardW * gapShare)),
    down: Math.round(cardH * DOWN_FAN),
    minDown: Math.max(3, Math.round(cardH * MIN_DOWN_FAN)),
    up: Math.round(cardH * UP_FAN),
    minUp: Math.ceil(cardW * INDEX_STRIP),
  };
}

/**
 * Where the foundations go: "top" is a row over columns 4 to 7 (narrow screens); "side" is a
 * 2×2 block right of column 7, which gives the tableau the full height (wide screens).
 * `gapShare`: the gap between cards, a share of a card's width; a narrow screen's width goes
 * to the cards rather than to the gaps.
 */
const ARRANGEMENTS = {
  top: { across: 7, gaps: 8, gapShare: 0.06 },
  side: { across: 9, gaps: 11, gapShare: 0.12 }, // 7 columns, a double gap, 2 foundation columns
};

function tableauTop(arrangement, m) {
  return arrangement === "top" ? m.gap + m.cardH + 2 * m.gap : m.gap;
}

/** Height of a column from its top: every card but the last shows a strip. */
function columnHeight(down, up, m, downStrip, upStrip) {
  const cards = down + up;
  if (!cards) return m.cardH;
  const downStrips = Math.min(down, cards - 1);
  return downStrips * downStrip + (cards - 1 - downStrips) * upStrip + m.cardH;
}

/** The least height of the tableau, in card heights, however little room the screen leaves. */
const TABLEAU_MIN_CARDS = 3;

/** Whether cards `cardW` wide fit `width`×`height`: the deal roomy, every column at least tight. */
function fits(cardW, arrangement, width, height, columns) {
  const { across, gaps, gapShare } = ARRANGEMENTS[arrangement];
  const m = cardMetrics(cardW, gapShare);
  if (across * cardW + gaps * m.gap > width) return false;
  const top = tableauTop(arrangement, m);
  const foundations = arrangement === "side" ? 2 * m.cardH + m.gap : 0;
  const deal = columnHeight(DEAL_COLUMN.down, DEAL_COLUMN.up, m, m.down, m.up);
  const longest = Math.max(
    ...columns.map((c) => columnHeight(c.down, c.up, m, m.minDown, m.minUp)),
  );
  // The tableau is laid out at least three cards tall (placeCards): a short deal on a wide
  // screen must fit that too, or its board runs past the height it was given.
  return top + Math.max(deal, longest, foundations, TABLEAU_MIN_CARDS * m.cardH) + m.gap <= height;
}

/** The widest card (MIN_CARD_W..MAX_CARD_W) that fits; MIN_CARD_W when even that does not. */
export function cardWidth(width, height, arrangement, columns = []) {
  let lo = MIN_CARD_W;
  let hi = MAX_CARD_W;
  if (!fits(lo, arrangement, width, height, columns)) return lo;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid, arrangement, width, height, columns)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The arrangement giving the bigger cards for a fresh deal: it follows the viewport only, so
 * it never flips while a column grows. */
export function arrangementFor(width, height) {
  return cardWidth(width, height, "side") > cardWidth(width, height, "top") ? "side" : "top";
}

/** Everything placed but the cards: sizes, the x of each column, tableau and foundation places. */
export function metrics(width, height, columns = []) {
  const arrangement = arrangementFor(width, height);
  const { across, gaps, gapShare } = ARRANGEMENTS[arrangement];
  const m = cardMetrics(cardWidth(width, height, arrangement, columns), gapShare);
  const used = across * m.cardW + (gaps - 2) * m.gap;
  const left = Math.max(m.gap, Math.floor((width - used) / 2));
  const step = m.cardW + m.gap;
  const xs = Array.from({ length: 7 }, (_, i) => left + i * step);
  const tableauY = tableauTop(arrangement, m);
  const foundations = [0, 1, 2, 3].map((index) =>
    arrangement === "top"
      ? { x: xs[3 + index], y: m.gap }
      : { x: xs[6] + step + m.gap + (index % 2) * step, y: m.gap + Math.floor(index / 2) * (m.cardH + m.gap) },
  );
  return { ...m, arrangement, xs, tableauY, foundations };
}

/** The roomy strips for columns `room` pixels tall: grown where the height is to spare. */
export function grownStrips(m, room) {
  const need = columnHeight(REACH.down, REACH.up, m, m.down, m.up) - m.cardH;
  const grow = Math.min(GROW, Math.max(1, (room - m.cardH) / need));
  return { ...m, down: Math.round(m.down * grow), up: Math.round(m.up * grow) };
}

/**
 * The y offsets of a column's cards in `room` pixels: the roomy strips when they fit, else
 * face-down cards squeezed first, then face-up ones, never below a readable rank and suit.
 */
export function fan(faceDown, faceUp, room, m) {
  const cards = faceDown + faceUp;
  const downStrips = Math.min(faceDown, Math.max(cards - 1, 0));
  const upStrips = Math.max(cards - 1 - downStrips, 0);
  const spare = room - m.cardH;
  let down = m.down;
  let up = m.up;
  if (downStrips * down + upStrips * up > spare) {
    if (downStrips) down = Math.max(m.minDown, Math.floor((spare - upStrips * up) / downStrips));
    if (upStrips) up = Math.max(m.minUp, Math.min(up, Math.floor((spare - downStrips * down) / upStrips)));
  }
  const ys = [];
  for (let i = 0; i < faceDown; i++) ys.push(i * down);
  for (let i = 0; i < faceUp; i++) ys.push(faceDown * down + i * up);
  return ys;
}

/** The smallest place a message is put in: room for three short lines. */
export const MESSAGE_MIN = { w: 200, h: 72 };

/**
 * Where a message hides no card: under the foundations of a wide table (no card ever goes
 * there), else below the lowest card, in the `height` the viewport gives; null when neither
 * holds MESSAGE_MIN (a column reaching the bottom of a small screen).
 */
export function messageSlot(m, foundationSlots, bottom, width, height) {
  const places = [];
  if (m.arrangement === "side") {
    const x = Math.min(...foundationSlots.map((s) => s.x));
    const y = Math.max(...foundationSlots.map((s) => s.y)) + m.cardH + m.gap;
    places.push({ x, y, w: width - x - m.gap, h: height - y - m.gap });
  }
  const x = m.xs[0];
  places.push({ x, y: bottom + m.gap, w: m.xs[6] + m.cardW - x, h: height - bottom - 2 * m.gap });
  return places.find((place) => place.w >= MESSAGE_MIN.w && place.h >= MESSAGE_MIN.h) ?? null;
}

/**
 * Everything the renderer places: cards (by id, face-up ones by their text, face-down ones as
 * `down-<col>-<i>`), the 4 foundation slots, the 7 column slots, drop targets, the height and
 * the place for messages (`messageSlot`). Where a long column leaves no such place, the cards
 * are laid out in a shorter height, so the foot of the screen stays free for messages: a
 * message then never covers a card or a drop target (null only when even that does not fit).
 */
export function layoutBoard(state, width, height) {
  const layout = placeCards(state, width, height);
  if (layout.message) return layout;
  const kept = placeCards(state, width, height - MESSAGE_MIN.h - 2 * layout.gap, height);
  return kept.message ? kept : layout;
}

/** The layout of `state` in `width`×`height`, its message place looked for in `screen` tall. */
function placeCards(state, width, height, screen = height) {
  const columns = state.columns.map((c) => ({ down: c.face_down, up: c.face_up.length }));
  const m = metrics(width, height, columns);
  const { tableauY } = m;
  const room = Math.max(height - tableauY - m.gap, m.cardH * TABLEAU_MIN_CARDS);
  // On a narrow screen messages go below the cards: the strips grow only as far as leaves them room.
  const strips = grownStrips(m, m.arrangement === "top" ? room - MESSAGE_MIN.h - m.gap : room);
  const cards = [];
  const columnSlots = [];
  let bottom = tableauY + m.cardH;
  state.columns.forEach((column, col) => {
    const x = m.xs[col];
    columnSlots.push({ col: col + 1, x, y: tableauY });
    const ys = fan(column.face_down, column.face_up.length, room, strips);
    ys.forEach((dy, i) => {
      const faceUp = i >= column.face_down;
      const id = faceUp ? column.face_up[i - column.face_down] : `down-${col + 1}-${i}`;
      cards.push({ id, faceUp, x, y: tableauY + dy, z: i + 1, col: col + 1 });
    });
    if (ys.length) bottom = Math.max(bottom, tableauY + ys[ys.length - 1] + m.cardH);
  });
  const foundationSlots = state.foundations.map((found, index) => ({
    index,
    suit: found.suit,
    ...m.foundations[index],
  }));
  state.foundations.forEach((found, index) => {
    if (found.top) {
      const slot = foundationSlots[index];
      cards.push({ id: found.top, faceUp: true, x: slot.x, y: slot.y, z: 1, foundation: index });
    }
  });
  for (const slot of foundationSlots) bottom = Math.max(bottom, slot.y + m.cardH);
  const boardHeight = bottom + m.gap;
  const half = m.gap / 2;
  const targets = columnSlots.map((slot) => ({
    kind: "column",
    col: slot.col,
    rect: { x: slot.x - half, y: tableauY - half, w: m.cardW + m.gap, h: boardHeight - tableauY + half },
  }));
  const xs = foundationSlots.map((s) => s.x);
  const ys = foundationSlots.map((s) => s.y);
  const fx = Math.min(...xs) - half;
  const fy = m.arrangement === "top" ? 0 : Math.min(...ys) - half;
  targets.push({
    kind: "foundation",
    rect: {
      x: fx,
      y: fy,
      w: Math.max(...xs) + m.cardW + half - fx,
      h: m.arrangement === "top" ? tableauY - half : Math.max(...ys) + m.cardH + half - fy,
    },
  });
  const { foundations: _places, ...sizes } = m;
  const message = messageSlot(m, foundationSlots, bottom, width, screen);
  return { ...sizes, cards, columnSlots, foundationSlots, targets, height: boardHeight, message };
}
