// What the puzzle pages share: the task and difficulty in words, a player's standing in a line,
// and opening the player's next puzzle.
import { get } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";
import { ratingText } from "./standings.js";

/** "Difficulty 3 of 5" */
export function difficultyText(difficulty) {
  return interpolate(gettext("Difficulty %(level)s of 5"), { level: formatNumber(difficulty) }, true);
}

/** The task in a sentence: one move, or a few in a row. */
export function taskText(count) {
  return count === 1
    ? gettext("Find the one move that keeps the win.")
    : interpolate(ngettext("Find the %(count)s move in a row that keeps the win.", "Find the %(count)s moves in a row that keep the win.", count), { count: formatNumber(count) }, true);
}

/** "Puzzle rating 4 · streak 2 · daily streak 1" (the rating a whole number, as for races). */
export function standingLine(me) {
  return interpolate(gettext("Puzzle rating %(rating)s · streak %(streak)s · daily streak %(daily)s"),
    { rating: ratingText(null, me.rating), streak: formatNumber(me.streak), daily: formatNumber(me.daily_streak) }, true);
}

/** Open the player's next puzzle, or say in `status` that there is none now. */
export async function openNext(ctx, status) {
  try {
    const next = await get("/puzzles/next");
    if (next.puzzle) {
      ctx.navigate(`/puzzles/${next.puzzle.id}`);
      return;
    }
    status.textContent = gettext("No puzzle for you right now: you have tried every one, and no card of your deck is due.");
  } catch (error) {
    ctx.notify(error.message, "error", error.code);
  }
}
