// Board layout: card size, column and foundation places, and the fan of each column.

const MIN_CARD_W = 40;
const MAX_CARD_W = 96;
export const ASPECT = 1.4;
const DOWN_FAN = 0.12; // share of a card's height a face-down card shows
const UP_FAN = 0.3; // share a face-up card shows (its rank and suit strip)
const MIN_UP_FAN = 0.22; // never squeeze a face-up card below this: its rank stays readable

/** Card width, gap and the x of each of the 7 columns for a board `width` pixels wide. */
export function metrics(width) {
  const gap = Math.max(4, Math.round(width * 0.012));
  const cardW = Math.max(MIN_CARD_W, Math.min(MAX_CARD_W, Math.floor((width - 8 * gap) / 7)));
  const cardH = Math.round(cardW * ASPECT);
  const used = 7 * cardW + 6 * gap;
  const left = Math.max(gap, Math.floor((width - used) / 2));
  const xs = Array.from({ length: 7 }, (_, i) => left + i * (cardW + gap));
  return { gap, cardW, cardH, xs };
}

/** The y offsets of a column's cards: face-down ones tight, face-up ones fanned to fit. */
export function fan(faceDown, faceUp, room, cardH) {
  const down = Math.round(cardH * DOWN_FAN);
  let up = Math.round(cardH * UP_FAN);
  if (faceUp > 1) {
    const fits = Math.floor((room - cardH - faceDown * down) / (faceUp - 1));
    up = Math.max(Math.round(cardH * MIN_UP_FAN), Math.min(up, fits));
  }
  const ys = [];
  for (let i = 0; i < faceDown; i++) ys.push(i * down);
  for (let i = 0; i < faceUp; i++) ys.push(faceDown * down + i * up);
  return ys;
}

/**
 * Everything the renderer places: cards (by id, face-up ones by their text, face-down ones as
 * `down-<col>-<i>`), the 4 foundation slots, the 7 column slots, drop targets and the height.
 */
export function layoutBoard(state, width, height) {
  const m = metrics(width);
  const topY = m.gap;
  const tableauY = topY + m.cardH + 2 * m.gap;
  const room = Math.max(height - tableauY - m.gap, m.cardH * 3);
  const cards = [];
  const columnSlots = [];
  let bottom = tableauY + m.cardH;
  state.columns.forEach((column, col) => {
    const x = m.xs[col];
    columnSlots.push({ col: col + 1, x, y: tableauY });
    const ys = fan(column.face_down, column.face_up.length, room, m.cardH);
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
    x: m.xs[3 + index],
    y: topY,
  }));
  state.foundations.forEach((found, index) => {
    if (found.top) {
      const slot = foundationSlots[index];
      cards.push({ id: found.top, faceUp: true, x: slot.x, y: slot.y, z: 1, foundation: index });
    }
  });
  const boardHeight = bottom + m.gap;
  const half = m.gap / 2;
  const targets = columnSlots.map((slot) => ({
    kind: "column",
    col: slot.col,
    rect: { x: slot.x - half, y: tableauY - half, w: m.cardW + m.gap, h: boardHeight - tableauY + half },
  }));
  const first = foundationSlots[0];
  targets.push({
    kind: "foundation",
    rect: { x: first.x - half, y: 0, w: 4 * (m.cardW + m.gap), h: tableauY - half },
  });
  return { ...m, tableauY, cards, columnSlots, foundationSlots, targets, height: boardHeight };
}
