// Click to pick, click to place on a puzzle's board: read from the server's legal moves.
import assert from "node:assert/strict";
import { test } from "node:test";

import { click, targetsOf } from "../../frontend/static/frontend/js/picking.js";

const legal = ["KS>2", "KH>2", "QH>5", "AS>F"];

test("a card's places come from the legal moves", () => {
  assert.deepEqual([...targetsOf(legal, "AS")], ["F"]);
  assert.deepEqual([...targetsOf(legal, "KH")], [2]);
  assert.equal(targetsOf(legal, "9C").size, 0);
});

test("the first click picks a card that can move, and only such a card", () => {
  assert.deepEqual(click(legal, null, { card: "KH", target: 4 }), { picked: "KH" });
  assert.deepEqual(click(legal, null, { card: "9C", target: 6 }), { picked: null, refused: true });
  assert.deepEqual(click(legal, null, { target: 3 }), { picked: null, refused: false });
});

test("the second click places the card where a legal move goes", () => {
  assert.deepEqual(click(legal, "KH", { target: 2 }), { picked: null, move: "KH>2" });
  assert.deepEqual(click(legal, "AS", { target: "F" }), { picked: null, move: "AS>F" });
  assert.deepEqual(click(legal, "QH", { card: "9C", target: 5 }), { picked: null, move: "QH>5" });
});

test("clicking the held card drops it; another movable card is picked instead", () => {
  assert.deepEqual(click(legal, "KH", { card: "KH", target: 4 }), { picked: null });
  assert.deepEqual(click(legal, "KH", { card: "QH", target: 4 }), { picked: "QH" });
});

test("a place no legal move goes keeps the card held and says so", () => {
  assert.deepEqual(click(legal, "KH", { target: 6 }), { picked: "KH", refused: true });
  assert.deepEqual(click(legal, "KH", { card: "9C", target: 6 }), { picked: "KH", refused: true });
});
