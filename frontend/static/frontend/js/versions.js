// Versioned pushes: which messages to apply, drop, or resync on; reconnect delays.

/** "stale" (already seen), "next" (apply), or "gap" (some were missed: ask for a resync). */
export function classify(version, current) {
  if (current === null || current === undefined) return "gap";
  if (version <= current) return "stale";
  return version === current + 1 ? "next" : "gap";
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s ... capped, times a factor in [0.5, 1]. */
export function backoffDelay(attempt, { base = 500, max = 10000, random = Math.random } = {}) {
  const raw = Math.min(max, base * 2 ** attempt);
  return Math.round(raw * (0.5 + random() / 2));
}
