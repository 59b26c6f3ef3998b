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

/** The close code of a socket over a limit: too many open, or too many messages sent. */
export const CLOSE_TOO_MANY = 4429;

/**
 * The wait before reconnecting a socket closed with `code`: over a limit it backs off far
 * longer (about 2 s, 4 s, 8 s ... up to a minute), so a refused page does not knock again and
 * again; anything else, the ordinary backoff.
 */
export function reconnectDelay(code, attempt, random = Math.random) {
  return code === CLOSE_TOO_MANY
    ? backoffDelay(attempt, { base: 2000, max: 60000, random })
    : backoffDelay(attempt, { random });
}
