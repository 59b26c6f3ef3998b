// What the puzzle pages share: the task and difficulty in words, a player's standing in a line,
// and opening the player's next puzzle.
import { get } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";
import { ratingText } from "./standings.js";

/** "Difficulty 3 of 5" */
export function difficultyText(difficulty) {
  return interpolate(gettext("Difficulty %(level)s of 5"), { level: formatNumber(difficulty) }, true);
}

/** "Rating 16 · medium: a new player solves it about 5 times in 10" (the band and chance are the
 * server's: the number alone is cautious, and rises as a puzzle's rating grows surer). */
export function ratingMeaning(puzzle) {
  const band = {
    easy: gettext("easy"),
    medium: gettext("medium"),
    hard: gettext("hard"),
    "very-hard": gettext("very hard"),
  }[puzzle.band] ?? puzzle.band;
  return interpolate(gettext("Rating %(rating)s · %(band)s: a new player solves it about %(count)s times in 10"),
    { rating: ratingText(null, puzzle.rating), band, count: formatNumber(Math.round(puzzle.solve_chance * 10)) }, true);
}

/** What the numbers mean, for the help under a standing. */
export function ratingScale() {
  return gettext("Puzzles and players share one rating scale: everybody starts at 0, and solving a puzzle rated above you gains more. The number is cautious and rises as a rating grows surer, so a puzzle also says how often a new player solves it.");
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
