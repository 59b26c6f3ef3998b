// Ranking pages: UTC days and the close countdown, shared ranks, the own row, pages, replay steps.
import assert from "node:assert/strict";
import { mock, test } from "node:test";

import {
  coalesce,
  isDay,
  ownRowApart,
  pageCount,
  pageNumber,
  percent,
  rankLabel,
  ratingText,
  secondsUntilClose,
  sharedRanks,
  shiftDay,
  stepTo,
} from "../../frontend/static/frontend/js/standings.js";

test("days shift across months, years and leap days in UTC", () => {
  assert.equal(shiftDay("2026-12-01", -1), "2026-11-30");
  assert.equal(shiftDay("2026-12-31", 1), "2027-01-01");
  assert.equal(shiftDay("2028-03-01", -1), "2028-02-29");
});

test("only real calendar days are days", () => {
  assert.ok(isDay("2026-12-01"));
  assert.ok(!isDay("2026-13-01"));
  assert.ok(!isDay("2026-02-30"), "a well-formed impossible day is no day");
  assert.ok(isDay("2028-02-29"));
  assert.ok(!isDay("yesterday"));
  assert.ok(!isDay(undefined));
});

test("a day closes at the next UTC midnight, and the countdown stops at zero", () => {
  const noon = Date.parse("2026-12-01T12:00:00Z");
  assert.equal(secondsUntilClose("2026-12-01", noon), 12 * 3600);
  assert.equal(secondsUntilClose("2026-12-01", Date.parse("2026-12-02T00:00:05Z")), 0);
});

test("ties on a page are marked, single ranks are not", () => {
  const rows = [{ rank: 1 }, { rank: 2 }, { rank: 2 }, { rank: 4 }];
  const shared = sharedRanks(rows);
  assert.deepEqual(rows.map((row) => rankLabel(row.rank, shared)), ["1", "2=", "2=", "4"]);
  assert.equal(rankLabel(1234, new Set([1234]), "de"), "1.234=", "ranks in the page's digits");
});

test("my own row goes below the table only when the page does not hold it", () => {
  const rows = [{ player: "ann" }, { player: "bea" }];
  assert.equal(ownRowApart(rows, { player: "bea" }), false);
  assert.equal(ownRowApart(rows, { player: "cid" }), true);
  assert.equal(ownRowApart(rows, null), false);
});

test("page numbers come from the query string and counts", () => {
  assert.equal(pageNumber("3"), 3);
  assert.equal(pageNumber(null), 1);
  assert.equal(pageNumber("-2"), 1);
  assert.equal(pageNumber("1.5"), 1);
  assert.deepEqual([0, 1, 20, 21].map((count) => pageCount(count, 20)), [1, 1, 1, 2]);
});

test("win rates read as percentages; no rate is a dash", () => {
  assert.equal(percent(0.615), "61.5%");
  assert.equal(percent(1), "100.0%");
  assert.equal(percent(null), "–");
  assert.equal(percent(1, "de"), "100,0\u00a0%");
  assert.equal(percent(1, "pt"), "100,0%");
  assert.equal(percent(0.615, "hu"), "61,5%");
});

test("replay steps stay within the game", () => {
  assert.equal(stepTo("next", 0, 5), 1);
  assert.equal(stepTo("next", 4, 5), 4);
  assert.equal(stepTo("prev", 0, 5), 0);
  assert.equal(stepTo("last", 1, 5), 4);
  assert.equal(stepTo("first", 3, 5), 0);
  assert.equal(stepTo("3", 0, 5), 3);
  assert.equal(stepTo("99", 0, 5), 4);
  assert.equal(stepTo("bogus", 2, 5), 2);
});

test("a burst of events makes one refresh; a cancelled one never runs", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let calls = 0;
    const refresh = coalesce(() => calls++, 20);
    refresh();
    mock.timers.tick(10);
    refresh();
    refresh();
    mock.timers.tick(10);
    assert.equal(calls, 1);
    refresh();
    refresh.cancel();
    mock.timers.tick(50);
    assert.equal(calls, 1);
    refresh();
    mock.timers.tick(20);
    assert.equal(calls, 2);
  } finally {
    mock.timers.reset();
  }
});

test("race ratings show as whole numbers with the change of the shown number", () => {
  assert.equal(ratingText(2.8, 6.23, "en"), "6 (+3)");
  assert.equal(ratingText(-1.2, -1.83, "en"), "−2 (−1)");
  assert.equal(ratingText(0.41, 0.8, "en"), "1 (+1)");
  assert.equal(ratingText(0.9, 1.2, "en"), "1 (±0)");
  assert.equal(ratingText(null, -0.3, "en"), "0");
  assert.equal(ratingText(undefined, 1234.4, "de"), "1.234");
});
