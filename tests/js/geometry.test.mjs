// Drag geometry: the tap/drag threshold and hit-testing of drop targets.
import assert from "node:assert/strict";
import { test } from "node:test";

import { contains, dropTarget, exceedsThreshold, overlapArea } from "../../frontend/static/frontend/js/geometry.js";

const targets = [
  { kind: "column", col: 1, rect: { x: 0, y: 100, w: 50, h: 400 } },
  { kind: "column", col: 2, rect: { x: 50, y: 100, w: 50, h: 400 } },
  { kind: "foundation", rect: { x: 0, y: 0, w: 200, h: 95 } },
];

test("moves under 3 pixels are a tap, 3 or more a drag", () => {
  assert.equal(exceedsThreshold({ x: 10, y: 10 }, { x: 12, y: 11 }), false);
  assert.equal(exceedsThreshold({ x: 10, y: 10 }, { x: 13, y: 10 }), true);
  assert.equal(exceedsThreshold({ x: 0, y: 0 }, { x: 2, y: 2.3 }), true);
});

test("overlap and containment", () => {
  assert.equal(overlapArea({ x: 0, y: 0, w: 10, h: 10 }, { x: 5, y: 5, w: 10, h: 10 }), 25);
  assert.equal(overlapArea({ x: 0, y: 0, w: 10, h: 10 }, { x: 10, y: 0, w: 5, h: 5 }), 0);
  assert.ok(contains({ x: 0, y: 0, w: 10, h: 10 }, { x: 0, y: 9.9 }));
  assert.ok(!contains({ x: 0, y: 0, w: 10, h: 10 }, { x: 10, y: 5 }));
});

test("the target under the pointer wins", () => {
  const card = { x: 0, y: 150, w: 48, h: 67 };
  assert.equal(dropTarget(card, { x: 60, y: 200 }, targets).col, 2);
});

test("off every target, the one the card overlaps most wins", () => {
  const card = { x: 30, y: 150, w: 48, h: 67 };
  assert.equal(dropTarget(card, { x: 500, y: 500 }, targets).col, 2);
  assert.equal(dropTarget({ x: 10, y: 20, w: 48, h: 67 }, { x: 900, y: 900 }, targets).kind, "foundation");
});

test("over nothing, nothing", () => {
  assert.equal(dropTarget({ x: 900, y: 900, w: 48, h: 67 }, { x: 920, y: 920 }, targets), null);
});
