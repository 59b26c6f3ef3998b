// Layout: card sizes for phone and desktop widths, column fans, drop targets.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fan, layoutBoard, metrics } from "../../frontend/static/frontend/js/layout.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const deck = ["S", "H", "D", "C"].flatMap((suit) => RANKS.map((rank) => rank + suit));
const deal = {
  columns: [
    { face_down: 0, face_up: deck.slice(0, 1) },
    ...[1, 2, 3, 4, 5, 6].map((down) => ({ face_down: down, face_up: deck.slice(1 + 5 * (down - 1), 6 + 5 * (down - 1)) })),
  ],
  foundations: ["S", "H", "D", "C"].map((suit) => ({ suit, count: 0, top: null })),
};

test("seven columns fit a phone and never overlap", () => {
  const m = metrics(390);
  assert.ok(m.cardW >= 40, `card width ${m.cardW}`);
  assert.ok(m.xs[6] + m.cardW <= 390);
  for (let i = 1; i < 7; i++) assert.ok(m.xs[i] >= m.xs[i - 1] + m.cardW);
});

test("cards stop growing on wide screens and the row is centred", () => {
  const m = metrics(2000);
  assert.equal(m.cardW, 96);
  const right = 2000 - (m.xs[6] + m.cardW);
  assert.ok(Math.abs(right - m.xs[0]) <= 1);
});

test("a long column squeezes its fan to fit, but never hides a rank", () => {
  const roomy = fan(2, 10, 2000, 100);
  const tight = fan(2, 10, 300, 100);
  assert.equal(roomy.length, 12);
  assert.ok(tight[11] < roomy[11]);
  assert.ok(tight[11] - tight[10] >= 22, "face-up strip keeps 22% of a card");
});

test("every card is placed once, face-down ones by column and depth", () => {
  const layout = layoutBoard(deal, 1280, 700);
  assert.equal(layout.cards.length, 1 + 5 * 6 + 21);
  assert.ok(layout.cards.some((c) => c.id === "down-7-5" && !c.faceUp && c.col === 7));
  const ids = new Set(layout.cards.map((c) => c.id));
  assert.equal(ids.size, layout.cards.length);
});

test("foundation tops sit in their fixed S H D C slots", () => {
  const state = structuredClone(deal);
  state.foundations[3] = { suit: "C", count: 1, top: "AC" };
  const layout = layoutBoard(state, 1280, 700);
  const ace = layout.cards.find((c) => c.id === "AC");
  assert.equal(ace.x, layout.foundationSlots[3].x);
  assert.equal(ace.y, layout.foundationSlots[3].y);
  assert.equal(ace.foundation, 3);
});

test("drop targets: one per column down to the board's bottom, one for the foundations", () => {
  const layout = layoutBoard(deal, 1280, 700);
  const columns = layout.targets.filter((t) => t.kind === "column");
  assert.deepEqual(columns.map((t) => t.col), [1, 2, 3, 4, 5, 6, 7]);
  for (const t of columns) assert.equal(t.rect.y + t.rect.h, layout.height);
  assert.equal(layout.targets.filter((t) => t.kind === "foundation").length, 1);
});
