// The sentences of solver answers: a hint's move, a verdict, and "unknown" said plainly.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describeAnswer } from "../../frontend/static/frontend/js/assists.js";

test("a hint names the card and its target", () => {
  assert.equal(describeAnswer({ status: "winnable", move: "5H>1" }, "hint"), "Hint: move 5 of hearts to column 1.");
  assert.equal(describeAnswer({ status: "winnable", move: "AS>F" }, "hint"), "Hint: move Ace of spades to its foundation.");
});

test("an unproven hint gives its move and says it is a best guess", () => {
  const text = describeAnswer({ status: "unknown", reason: "time-budget", move: "5H>1", proven: false }, "hint");
  assert.match(text, /^Hint: move 5 of hearts to column 1\. /);
  assert.match(text, /best guess/);
  assert.doesNotMatch(describeAnswer({ status: "winnable", move: "5H>1", proven: true }, "hint"), /guess/);
});

test("an unknown verdict without a move says the solver ran out of time", () => {
  for (const question of ["hint", "winnability"]) {
    const text = describeAnswer({ status: "unknown", reason: "time-budget", move: null }, question);
    assert.match(text, /ran out of time/);
    assert.match(text, /unknown/i);
  }
});

test("the verdicts of winnability", () => {
  assert.equal(describeAnswer({ status: "winnable" }, "winnability"), "Yes: this game can still be won.");
  assert.equal(describeAnswer({ status: "no-longer-winnable" }, "winnability"), "No: this game can no longer be won.");
  assert.equal(describeAnswer({ status: "no-longer-winnable", move: null }, "hint"), "No hint: this game can no longer be won.");
});
