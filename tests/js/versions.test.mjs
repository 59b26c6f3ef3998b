// Versioned pushes: apply the next one, drop old ones, resync on a gap; reconnect delays.
import assert from "node:assert/strict";
import { test } from "node:test";

import { backoffDelay, CLOSE_TOO_MANY, classify, reconnectDelay } from "../../frontend/static/frontend/js/versions.js";

test("the next version applies, old ones are dropped", () => {
  assert.equal(classify(5, 4), "next");
  assert.equal(classify(4, 4), "stale");
  assert.equal(classify(2, 4), "stale");
});

test("a gap (or no version yet) asks for a resync", () => {
  assert.equal(classify(7, 4), "gap");
  assert.equal(classify(1, null), "gap");
});

test("backoff doubles up to a cap, with jitter between half and all of it", () => {
  const max = (attempt) => backoffDelay(attempt, { random: () => 1 });
  const min = (attempt) => backoffDelay(attempt, { random: () => 0 });
  assert.deepEqual([0, 1, 2, 3].map(max), [500, 1000, 2000, 4000]);
  assert.equal(max(20), 10000);
  assert.equal(min(1), 500);
});

test("a socket refused for a limit (4429) backs off longer, with jitter, up to a minute", () => {
  const longest = (attempt) => reconnectDelay(CLOSE_TOO_MANY, attempt, () => 1);
  const shortest = (attempt) => reconnectDelay(CLOSE_TOO_MANY, attempt, () => 0);
  assert.deepEqual([0, 1, 2, 3].map(longest), [2000, 4000, 8000, 16000]);
  assert.equal(longest(30), 60000);
  assert.equal(shortest(0), 1000);
  assert.equal(reconnectDelay(1006, 0, () => 1), 500); // a lost connection: the usual backoff
});
