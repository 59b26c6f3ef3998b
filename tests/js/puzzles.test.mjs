// The puzzle pages' words: the task, the difficulty, a player's standing in a line.
import assert from "node:assert/strict";
import { test } from "node:test";

import { difficultyText, ratingMeaning, standingLine, taskText } from "../../frontend/static/frontend/js/puzzles.js";

test("the task says how many moves to find", () => {
  assert.equal(taskText(1), "Find the one move that keeps the win.");
  assert.equal(taskText(2), "Find the 2 moves in a row that keep the win.");
});

test("difficulty and standing read as players read them", () => {
  assert.equal(difficultyText(3), "Difficulty 3 of 5");
  assert.equal(standingLine({ rating: 3.8161, streak: 2, daily_streak: 0 }), "Puzzle rating 4 · streak 2 · daily streak 0");
  assert.equal(standingLine({ rating: -1.45, streak: 0, daily_streak: 1 }), "Puzzle rating −1 · streak 0 · daily streak 1");
});

test("a puzzle's rating comes with its band and a new player's chance", () => {
  assert.equal(ratingMeaning({ rating: 16.2, band: "medium", solve_chance: 0.5 }),
    "Rating 16 · medium: a new player solves it about 5 times in 10");
  assert.equal(ratingMeaning({ rating: -6, band: "very-hard", solve_chance: 0.17 }),
    "Rating −6 · very hard: a new player solves it about 2 times in 10");
});
