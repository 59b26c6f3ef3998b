// Keyboard play: cursor movement, picking a card and choosing where it goes (as intents).
import assert from "node:assert/strict";
import { test } from "node:test";

import { keyAction, refreshCursor, startCursor } from "../../frontend/static/frontend/js/keyboard.js";

const state = {
  columns: [["6S"], ["8S", "7D"], [], ["3S"], ["9D"], ["KH"], ["2H"]].map((face_up) => ({ face_down: 0, face_up })),
  foundations: ["S", "H", "D", "C"].map((suit) => ({ suit, count: suit === "S" ? 1 : 0, top: suit === "S" ? "AS" : null })),
};

function press(keys, kb = { cursor: null, picked: null }) {
  const intents = [];
  for (const key of keys) {
    const result = keyAction(key, kb, state);
    kb = result.kb;
    if (result.intent) intents.push(result.intent);
  }
  return { kb, intents };
}

test("arrows walk columns and cards; the cursor starts on column 1's last card", () => {
  assert.deepEqual(startCursor(state), { col: 1, card: "6S" });
  assert.deepEqual(press(["ArrowRight"]).kb.cursor, { col: 2, card: "7D" });
  assert.deepEqual(press(["ArrowRight", "ArrowUp"]).kb.cursor, { col: 2, card: "8S" });
  assert.deepEqual(press(["ArrowRight", "ArrowRight"]).kb.cursor, { col: 3, card: null });
});

test("up from the top card reaches the foundations, down comes back", () => {
  const { kb } = press(["ArrowUp"]);
  assert.deepEqual(kb.cursor, { foundation: 0, card: "AS" });
  assert.deepEqual(press(["ArrowDown"], kb).kb.cursor, { col: 4, card: "3S" });
});

test("Enter picks, then a digit, F or Enter on a column sends a move", () => {
  assert.deepEqual(press(["ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "Enter", "3"]).intents, [{ kind: "move", move: "2H>3" }]);
  assert.deepEqual(press(["Enter", "f"]).intents, [{ kind: "move", move: "6S>F" }]);
  assert.deepEqual(press(["Enter", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "Enter"]).intents, [{ kind: "move", move: "6S>5" }]);
  assert.deepEqual(press(["ArrowUp", "Enter", "ArrowRight", "ArrowDown", "Enter"]).intents, [{ kind: "move", move: "AS>5" }]);
});

test("Escape or Enter on the picked card puts it down; T and D are tap and double click", () => {
  assert.equal(press(["Enter", "Escape"]).kb.picked, null);
  assert.deepEqual(press(["Enter", "Enter"]).intents, []);
  assert.deepEqual(press(["t"]).intents, [{ kind: "tap", card: "6S" }]);
  assert.deepEqual(press(["d"]).intents, [{ kind: "double-click", card: "6S" }]);
});

test("the cursor follows its card to a new column after a move", () => {
  const moved = structuredClone(state);
  moved.columns[0].face_up = [];
  moved.columns[6].face_up = ["2H", "6S"];
  assert.deepEqual(refreshCursor(moved, { col: 1, card: "6S" }), { col: 7, card: "6S" });
  assert.deepEqual(refreshCursor(moved, { col: 1, card: "QQ" }), { col: 1, card: null });
});

test("F with nothing picked up finishes once the server offers it; with a card picked it means the foundation", () => {
  assert.deepEqual(press(["f"]).intents, []);
  const offered = { ...state, can_finish: true };
  assert.deepEqual(keyAction("F", { cursor: null, picked: null }, offered).intent, { kind: "finish" });
  const picked = keyAction("F", { cursor: { col: 1, card: "6S" }, picked: "6S" }, offered);
  assert.deepEqual(picked.intent, { kind: "move", move: "6S>F" });
});
