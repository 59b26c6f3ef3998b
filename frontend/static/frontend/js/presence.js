// Where the player is, told to the game's clock (docs/api.md, "The clock"): at the table
// (resume: when it opens, when it comes back in sight, and every minute while in sight, so a
// long think counts whole) or away (park: hidden, closed, or left for another page). The server
// counts the time; this only says where the player is.
import { post } from "./api.js";

/** A resume this often while the table is in sight (the server counts a gap up to 3 minutes). */
const STILL_HERE_MS = 60000;

/**
 * Follow the player's presence at game `gameId`'s table. `live()`: whether the clock may run
 * (an active game of theirs); `onClock(state)`: the server's answer to a resume. Returns the
 * function that stops following (and parks: the player is leaving the table).
 */
export function attendTable(gameId, { live, onClock }) {
  let timer = 0;
  let present = false;
  const resume = () => {
    if (live()) post(`/games/${gameId}/resume`).then(onClock, () => null);
  };
  const arrive = () => {
    if (present) return;
    present = true;
    resume();
    timer = setInterval(resume, STILL_HERE_MS);
  };
  const leave = () => {
    if (!present) return;
    present = false;
    clearInterval(timer);
    // keepalive: the goodbye still goes when the page is being closed.
    if (live()) post(`/games/${gameId}/park`, {}, { keepalive: true }).catch(() => null);
  };
  const onVisibility = () => (document.visibilityState === "visible" ? arrive() : leave());
  const onPageShow = () => document.visibilityState === "visible" && arrive();
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pagehide", leave);
  window.addEventListener("pageshow", onPageShow);
  if (document.visibilityState === "visible") arrive();
  return () => {
    document.removeEventListener("visibilitychange", onVisibility);
    window.removeEventListener("pagehide", leave);
    window.removeEventListener("pageshow", onPageShow);
    leave();
  };
}
