// Layout: card sizes for phone and desktop widths, column fans, drop targets.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  INDEX_STRIP,
  MAX_CARD_W,
  MIN_CARD_W,
  arrangementFor,
  cardMetrics,
  cardWidth,
  fan,
  layoutBoard,
  metrics,
} from "../../frontend/static/frontend/js/layout.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const deck = ["S", "H", "D", "C"].flatMap((suit) => RANKS.map((rank) => rank + suit));
const deal = {
  columns: [
    { face_down: 0, face_up: deck.slice(0, 1) },
    ...[1, 2, 3, 4, 5, 6].map((down) => ({ face_down: down, face_up: deck.slice(1 + 5 * (down - 1), 6 + 5 * (down - 1)) })),
  ],
  foundations: ["S", "H", "D", "C"].map((suit) => ({ suit, count: 0, top: null })),
};

/** The lowest pixel the layout uses: cards and foundation slots. */
function lowest(layout) {
  return Math.max(...layout.cards.map((c) => c.y + layout.cardH), ...layout.foundationSlots.map((s) => s.y + layout.cardH));
}

/** A position with one long column: `down` face-down cards under `up` face-up ones in column 7. */
function longColumn(down, up) {
  const state = structuredClone(deal);
  state.columns[6] = { face_down: down, face_up: deck.slice(0, up) };
  return state;
}

const SCREENS = { laptop: [1366, 640], desktop: [1920, 950], phone: [383, 690] };

test("seven columns fit a phone and never overlap", () => {
  const m = metrics(390, 700);
  assert.equal(m.arrangement, "top");
  assert.ok(m.cardW >= MIN_CARD_W, `card width ${m.cardW}`);
  assert.ok(m.xs[6] + m.cardW <= 390);
  for (let i = 1; i < 7; i++) assert.ok(m.xs[i] >= m.xs[i - 1] + m.cardW);
});

test("on a wide screen the foundations go beside the columns and the cards use the width", () => {
  const m = metrics(1366, 640);
  assert.equal(m.arrangement, "side");
  assert.equal(m.tableauY, m.gap, "the columns start at the top");
  const right = Math.max(...m.foundations.map((f) => f.x)) + m.cardW;
  assert.ok(right - m.xs[0] > 0.85 * 1366, `the table spans ${right - m.xs[0]} of 1366 pixels`);
  assert.ok(right <= 1366);
  const [first, second] = m.foundations;
  assert.ok(first.x > m.xs[6] + m.cardW, "foundations right of column 7");
  assert.ok(second.x >= first.x + m.cardW, "two foundations side by side");
});

test("cards stop growing on huge screens and the table is centred", () => {
  const m = metrics(4000, 3000);
  assert.equal(m.cardW, MAX_CARD_W);
  const right = 4000 - (Math.max(...m.foundations.map((f) => f.x)) + m.cardW);
  assert.ok(Math.abs(right - m.xs[0]) <= 1);
});

test("a fresh deal fits the height with the roomy fans at every screen", () => {
  for (const [name, [width, height]] of Object.entries(SCREENS)) {
    const layout = layoutBoard(deal, width, height);
    assert.ok(layout.height <= height, `${name}: ${layout.height} > ${height}`);
    const col7 = layout.cards.filter((c) => c.col === 7 && c.faceUp);
    const strip = col7[1].y - col7[0].y;
    if (name === "phone") assert.ok(strip > Math.round(layout.cardH * 0.3), `phone: grown strip ${strip}`);
    else assert.equal(strip, Math.round(layout.cardH * 0.3), `${name}: roomy face-up strip`);
  }
});

test("on a phone the seven columns span the width with narrow gaps", () => {
  const m = metrics(390, 700);
  const span = m.xs[6] + m.cardW - m.xs[0];
  assert.ok(span >= 0.95 * 390, `the columns span ${span} of 390 pixels`);
  assert.ok(m.cardW >= 52, `card width ${m.cardW}`);
  assert.ok(m.gap < cardMetrics(m.cardW).gap, "narrower gaps than a wide screen's");
});

test("a tall phone's spare height grows the strips, up to a king-to-ace column on six face-down cards", () => {
  const [width, height] = [390, 744];
  const base = metrics(width, height);
  const layout = layoutBoard(longColumn(6, 13), width, height);
  const col7 = layout.cards.filter((c) => c.col === 7);
  const up = col7[7].y - col7[6].y;
  const down = col7[1].y - col7[0].y;
  assert.ok(up > base.up && up <= Math.round(base.up * 1.8), `face-up strip ${up} of ${base.up}`);
  assert.ok(down > base.down, `face-down strip ${down} of ${base.down}`);
  assert.ok(lowest(layout) + layout.gap <= height, `bottom ${lowest(layout)} of ${height}`);
  const short = layoutBoard(deal, width, height).cards.filter((c) => c.col === 7);
  assert.equal(short[7].y - short[6].y, up, "every column fans alike, whatever its length");
});

test("cardMetrics: the tight face-up strip holds the corner index", () => {
  const m = cardMetrics(50);
  assert.equal(m.cardH, 70);
  assert.equal(m.minUp, Math.ceil(50 * INDEX_STRIP));
  assert.ok(m.minDown < m.down && m.minUp < m.up);
});

test("a long column squeezes face-down strips first, then face-up ones, never below the index", () => {
  const m = cardMetrics(100);
  const roomy = fan(6, 10, 2000, m);
  assert.equal(roomy.length, 16);
  assert.equal(roomy[1] - roomy[0], m.down);
  assert.equal(roomy[7] - roomy[6], m.up);
  const justDown = fan(6, 10, m.cardH + 6 * m.down + 9 * m.up - 30, m);
  assert.ok(justDown[1] - justDown[0] < m.down, "face-down cards overlap more");
  assert.equal(justDown[7] - justDown[6], m.up, "face-up strips untouched");
  const tight = fan(6, 10, 300, m);
  assert.equal(tight[1] - tight[0], m.minDown);
  assert.equal(tight[7] - tight[6], m.minUp);
});

test("a 34-card column still fits every screen, each face-up card showing its index", () => {
  for (const [name, [width, height]] of Object.entries(SCREENS)) {
    const state = longColumn(6, 28);
    const layout = layoutBoard(state, width, height);
    assert.ok(lowest(layout) + layout.gap <= height, `${name}: bottom ${lowest(layout)} of ${height}`);
    assert.ok(layout.height <= height);
    const col7 = layout.cards.filter((c) => c.col === 7);
    for (let i = 1; i < col7.length; i++) {
      const strip = col7[i].y - col7[i - 1].y;
      if (col7[i - 1].faceUp) assert.ok(strip >= layout.cardW * INDEX_STRIP, `${name}: strip ${strip}`);
      else assert.ok(strip >= 3);
    }
    assert.ok(layout.cardW >= MIN_CARD_W);
  }
});

test("cards shrink only when a column would not fit even at the tight strips", () => {
  const [width, height] = SCREENS.laptop;
  const fresh = cardWidth(width, height, "side");
  assert.equal(cardWidth(width, height, "side", [{ down: 6, up: 5 }]), fresh);
  const longer = cardWidth(width, height, "side", [{ down: 6, up: 18 }]);
  const longest = cardWidth(width, height, "side", [{ down: 6, up: 28 }]);
  assert.ok(longest < longer && longer < fresh, `${fresh} > ${longer} > ${longest}`);
});

test("the arrangement follows the viewport, not the columns", () => {
  const [width, height] = SCREENS.laptop;
  assert.equal(metrics(width, height).arrangement, metrics(width, height, [{ down: 6, up: 40 }]).arrangement);
  assert.equal(arrangementFor(390, 700), "top");
  assert.equal(arrangementFor(844, 300), "side");
});

test("a column too long for the smallest cards makes the board taller than the screen", () => {
  const layout = layoutBoard(longColumn(6, 45), 383, 500);
  assert.equal(layout.cardW, MIN_CARD_W);
  assert.ok(layout.height > 500);
  assert.equal(layout.height, lowest(layout) + layout.gap);
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

test("beside the columns, the foundation target covers the 2×2 block and no column", () => {
  const layout = layoutBoard(deal, 1366, 640);
  assert.equal(layout.arrangement, "side");
  const { rect } = layout.targets.find((t) => t.kind === "foundation");
  for (const slot of layout.foundationSlots) {
    assert.ok(rect.x <= slot.x && slot.x + layout.cardW <= rect.x + rect.w);
    assert.ok(rect.y <= slot.y && slot.y + layout.cardH <= rect.y + rect.h);
  }
  const col7 = layout.targets.find((t) => t.col === 7).rect;
  assert.ok(col7.x + col7.w <= rect.x, "column 7's target ends where the foundations' begins");
});

/** Whether two rectangles share any pixel. */
function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

test("messages get a place that hides no card: under the foundations, or below the cards", () => {
  for (const [name, [width, height]] of Object.entries(SCREENS)) {
    const layout = layoutBoard(deal, width, height);
    const place = layout.message;
    assert.ok(place, name);
    assert.ok(place.w >= 200 && place.h >= 72, name);
    assert.ok(place.y + place.h <= height && place.x + place.w <= width, name);
    const cards = [...layout.cards, ...layout.foundationSlots.map((s) => ({ ...s }))];
    for (const card of cards) {
      assert.ok(!overlaps(place, { x: card.x, y: card.y, w: layout.cardW, h: layout.cardH }), `${name}: ${card.id ?? card.suit}`);
    }
    if (layout.arrangement === "side") assert.ok(place.x >= layout.foundationSlots[0].x, name);
  }
});

test("a column that would reach the bottom is fanned tighter to keep a message place below it", () => {
  const [width, height] = SCREENS.phone;
  const layout = layoutBoard(longColumn(6, 30), width, height);
  assert.equal(layout.arrangement, "top");
  const place = layout.message;
  assert.ok(place && place.w >= 200 && place.h >= 72 && place.y + place.h <= height);
  assert.ok(place.y >= lowest(layout), "the place is below every card");
  const col7 = layout.cards.filter((c) => c.col === 7);
  const tightest = Math.min(...col7.slice(7).map((c, i) => c.y - col7[6 + i].y));
  assert.ok(tightest >= cardMetrics(layout.cardW, 0.06).minUp, "every rank still readable");
});

test("a column too long even for that leaves no message place", () => {
  assert.equal(layoutBoard(longColumn(6, 45), 383, 500).message, null);
});
