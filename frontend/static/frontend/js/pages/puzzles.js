// Puzzles (/puzzles): today's puzzle for everybody, the player's next card (their deck of turning
// points, spaced out over days), and their puzzle rating and streaks.
import { get } from "../api.js";
import { h } from "../dom.js";
import { formatDate, formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { difficultyText, openNext, ratingMeaning, ratingScale, taskText } from "../puzzles.js";
import { ratingText } from "../standings.js";
import { ruleName } from "../variants.js";
import { longDay } from "./daily.js";

function dailyBox(daily) {
  if (!daily) {
    return [h("h2", {}, gettext("Today's puzzle")),
      h("p", { class: "empty" }, gettext("There is no puzzle yet: none has been found to choose from."))];
  }
  const { puzzle } = daily;
  const answered = puzzle.answered;
  const result = answered
    ? h("p", { class: `puzzle-result ${answered.correct ? "solved" : "missed"}` },
      answered.correct ? gettext("Solved today. Well done!") : gettext("Missed today: see the answer on the puzzle."))
    : null;
  return [
    h("h2", {}, gettext("Today's puzzle")),
    h("p", { class: "day-date" }, interpolate(gettext("%(date)s (UTC)"), { date: longDay(daily.date) }, true)),
    h("p", {}, taskText(puzzle.moves_to_find), " ", ruleName(puzzle.rule), " · ", difficultyText(puzzle.difficulty)),
    h("p", { class: "puzzle-rating" }, ratingMeaning(puzzle)),
    result,
    h("div", { class: "actions start" },
      h("a", { href: `/puzzles/${puzzle.id}`, "data-link": true, class: "button primary", "data-action": "daily-puzzle" },
        answered ? gettext("See today's puzzle") : gettext("Solve today's puzzle"))),
  ];
}

function deckBox(ctx, me) {
  const status = h("p", { class: "note", role: "status" });
  const due = me.due
    ? interpolate(ngettext("%(count)s card of your deck is due.", "%(count)s cards of your deck are due.", me.due), { count: formatNumber(me.due) }, true)
    : me.next_due_at
      ? interpolate(gettext("Nothing due: your next card comes back %(when)s."), { when: formatDate(me.next_due_at) }, true)
      : gettext("Your deck is empty: the puzzles of the games you lose, and those you miss, come back here.");
  return [
    h("h2", {}, gettext("Your deck")),
    h("p", {}, due),
    h("p", { class: "help" }, gettext("A card answered right comes back later and later; a card missed comes back the next day. With nothing due, you get a new puzzle near your rating.")),
    h("div", { class: "actions start" },
      h("button", { type: "button", class: me.due ? "primary" : "", "data-action": "next-puzzle", onclick: () => openNext(ctx, status) }, gettext("Next puzzle"))),
    status,
  ];
}

function standingBox(me, guest) {
  const rows = [
    [gettext("Puzzle rating"), ratingText(null, me.rating)],
    [gettext("Solved"), interpolate(gettext("%(solved)s of %(attempts)s"), { solved: formatNumber(me.solved), attempts: formatNumber(me.attempts) }, true)],
    [gettext("Streak"), interpolate(gettext("%(now)s (best %(best)s)"), { now: formatNumber(me.streak), best: formatNumber(me.best_streak) }, true)],
    [gettext("Daily streak"), interpolate(gettext("%(now)s (best %(best)s)"), { now: formatNumber(me.daily_streak), best: formatNumber(me.best_daily_streak) }, true)],
  ];
  return [
    h("h2", {}, gettext("Your standing")),
    h("dl", { class: "puzzle-standing-list" }, rows.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    h("p", { class: "help" }, guest
      ? gettext("As a guest, your answers are practice: they move no rating. Sign up to be rated.")
      : gettext("Only your first answer to a puzzle is rated: you against the puzzle, which has a rating too.")),
    h("p", { class: "help puzzle-scale" }, ratingScale()),
  ];
}

export async function mount(root, ctx) {
  let daily = null;
  try {
    daily = await get("/puzzles/daily");
  } catch (error) {
    if (error.code !== "no-daily-puzzle") {
      root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, gettext("Puzzles")), h("p", {}, error.message)));
      return null;
    }
  }
  const me = daily?.me ?? (ctx.me ? (await get("/puzzles/next").catch(() => null))?.me : null);
  const intro = h("p", {}, gettext("In each puzzle, exactly one move keeps the game winnable: the solver proved every other move loses. Find it."));
  const sections = [h("section", { class: "puzzle-daily", "aria-label": gettext("Today's puzzle") }, dailyBox(daily))];
  if (me) {
    sections.push(h("section", { class: "puzzle-deck", "aria-label": gettext("Your deck") }, deckBox(ctx, me)));
    sections.push(h("section", { class: "puzzle-me", "aria-label": gettext("Your standing") }, standingBox(me, ctx.me?.guest)));
  } else {
    sections.push(h("section", { class: "puzzle-deck" },
      h("p", {}, gettext("Log in or sign up to get your own deck of puzzles from your games, a puzzle rating and streaks.")),
      h("div", { class: "actions start" },
        h("a", { href: "/login", "data-link": true, class: "button" }, gettext("Log in")),
        h("a", { href: "/signup", "data-link": true, class: "button" }, gettext("Sign up")))));
  }
  root.replaceChildren(h("section", { class: "panel puzzles" }, h("h1", {}, gettext("Puzzles")), intro, ...sections));
  return null;
}
