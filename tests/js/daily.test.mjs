// Daily page dates: a heading names the weekday, a date inside a sentence does not.
import assert from "node:assert/strict";
import { test } from "node:test";

import { dayInSentence, longDay } from "../../frontend/static/frontend/js/pages/daily.js";

test("a date inside a sentence comes without its weekday, in UTC", () => {
  assert.equal(dayInSentence("2026-11-30"), "November 30, 2026");
  assert.equal(`Nobody played the daily deal of ${dayInSentence("2026-12-01")}.`, "Nobody played the daily deal of December 1, 2026.");
});

test("the day's heading keeps the weekday", () => {
  assert.equal(longDay("2026-11-30"), "Monday, November 30, 2026");
});
