// Reading states: destinations from legal_moves, diffs between states, card places.
import assert from "node:assert/strict";
import { test } from "node:test";

import { groupOf, isLastInColumn, locate } from "../../frontend/static/frontend/js/cards.js";
import { describeChange, destinations, diffStates } from "../../frontend/static/frontend/js/state.js";

function board(columns, foundations = [null, null, null, null], down = []) {
  return {
    columns: columns.map((face_up, i) => ({ face_down: down[i] ?? 0, face_up })),
    foundations: ["S", "H", "D", "C"].map((suit, i) => ({ suit, count: foundations[i] ? 1 : 0, top: foundations[i] })),
  };
}

test("destinations come only from the server's legal moves", () => {
  const legal = ["10D>3", "10D>5", "AS>F", "AS>7", "10H>3"];
  const found = destinations(legal, "10D");
  assert.deepEqual([...found.columns], [3, 5]);
  assert.equal(found.foundation, false);
  assert.equal(destinations(legal, "AS").foundation, true);
  assert.equal(destinations(legal, "AS").columns.has(7), true);
  assert.equal(destinations(legal, "1").columns.size, 0, "a prefix of another card is not a match");
});

test("a group is the card and everything on it; a foundation top goes alone", () => {
  const state = board([["KS", "QH", "JC"], [], [], [], [], [], []], ["AS", null, null, null]);
  assert.deepEqual(groupOf(state, "QH"), ["QH", "JC"]);
  assert.deepEqual(groupOf(state, "AS"), ["AS"]);
  assert.deepEqual(groupOf(state, "2D"), []);
  assert.deepEqual(locate(state, "JC"), { where: "column", col: 0, index: 2 });
  assert.ok(isLastInColumn(state, "JC"));
  assert.ok(!isLastInColumn(state, "QH"));
  assert.ok(!isLastInColumn(state, "AS"));
});

test("a diff names the moved cards and the columns that turned a card", () => {
  const before = board([["6S"], ["8S", "5H", "2C"], [], [], [], [], []], [null, null, null, null], [0, 1]);
  const after = board([["6S", "5H", "2C"], ["9D"], [], [], [], [], []], [null, null, null, null], [0, 0]);
  const diff = diffStates(before, after);
  assert.deepEqual(diff.moved, [
    { card: "5H", from: "c2", to: "c1" },
    { card: "2C", from: "c2", to: "c1" },
  ]);
  assert.deepEqual(diff.turned, [2]);
  assert.deepEqual(diff.revealed, ["9D"]);
  assert.equal(describeChange(diff, (c) => c), "5H with 1 more to column 1. 9D turned face up.");
});

test("a card going home is described as such; the first state has no diff", () => {
  const before = board([["AS"], [], [], [], [], [], []]);
  const after = board([[], [], [], [], [], [], []], ["AS", null, null, null]);
  assert.equal(describeChange(diffStates(before, after), (c) => c), "AS to its foundation.");
  assert.deepEqual(diffStates(null, after), { moved: [], turned: [], revealed: [] });
});

test("a dragged card's target accepts it only when the server lists the move", async () => {
  const { accepts } = await import("../../frontend/static/frontend/js/state.js");
  const legal = ["5H>1", "5H>F", "AS>F"];
  assert.equal(accepts(legal, "5H", { kind: "column", col: 1 }), true);
  assert.equal(accepts(legal, "5H", { kind: "column", col: 2 }), false);
  assert.equal(accepts(legal, "5H", { kind: "foundation" }), true);
  assert.equal(accepts(legal, "9S", { kind: "column", col: 1 }), false);
  // Auto placement: the server picks the place, any destination will do.
  assert.equal(accepts(legal, "5H", { kind: "column", col: 2 }, true), true);
  assert.equal(accepts(legal, "9S", { kind: "column", col: 2 }, true), false);
});
