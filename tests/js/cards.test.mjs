// Moves in words for the analysis: "7♦ onto 8♣", an empty column, a foundation; the group moved.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardLabel, describeMove } from "../../frontend/static/frontend/js/cards.js";

const board = {
  columns: [
    { face_down: 0, face_up: ["8C"] },
    { face_down: 2, face_up: ["9H", "8S", "7D"] },
    { face_down: 0, face_up: [] },
    { face_down: 0, face_up: [] }, { face_down: 0, face_up: [] }, { face_down: 0, face_up: [] }, { face_down: 0, face_up: ["AS"] },
  ],
  foundations: [{ suit: "S", count: 0, top: null }, { suit: "H", count: 0, top: null }, { suit: "D", count: 0, top: null }, { suit: "C", count: 0, top: null }],
};

test("cards are written with their suit's sign", () => {
  assert.equal(cardLabel("10D"), "10♦");
  assert.equal(cardLabel("KS"), "K♠");
});

test("a move says where the card goes and which cards go with it", () => {
  assert.deepEqual(describeMove("7D>1", board), { cards: ["7D"], to: 1, text: "7♦ onto 8♣" });
  assert.deepEqual(describeMove("8S>3", board), { cards: ["8S", "7D"], to: 3, text: "8♠ to the empty column 3" });
  assert.deepEqual(describeMove("AS>F", board), { cards: ["AS"], to: "F", text: "A♠ to its foundation" });
});
