// The daily deal: today's countdown and attempts, a day's ranking (live while the day runs),
// past days with their codes and replay links. The code of a running day never reaches the page:
// the server sends null until the day closes. `?rule=U` shows another rule's own daily (Classic,
// the main one, never carries it).
import { ApiError, get, post } from "../api.js";
import { dayGrade } from "../difficulty.js";
import { clock, h } from "../dom.js";
import { formatDate, formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { PUSH } from "../pushes.js";
import { startGuest } from "../session.js";
import { coalesce, isDay, PAGE_SIZE, pageNumber, secondsUntilClose, shiftDay } from "../standings.js";
import { fill, lobbyEvents, pager, rankTable, reflectQuery, ruleName, ruleToggle, toggleGroup } from "../tables.js";
import { ruleFromQuery, ruleQuery } from "../variants.js";

/** After the countdown ends, wait this long before asking the server for the closed day. */
const CLOSE_GRACE_MS = 3000;

/** "Tuesday, December 1, 2026" for a UTC day in the page's language: a heading on its own. */
export function longDay(day) {
  return formatDate(`${day}T00:00:00Z`, { timeZone: "UTC", weekday: "long", year: "numeric", month: "long", day: "numeric" });
}

/** "December 1, 2026", no weekday: the form a date takes inside a sentence ("do dia 1 de dezembro"). */
export function dayInSentence(day) {
  return formatDate(`${day}T00:00:00Z`, { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

export function dayPath(day, today, rule = "C") {
  return (day === today ? "/daily" : `/daily/${day}`) + ruleQuery(rule);
}

/** One sentence for a ranking row's outcome. */
export function outcome(row) {
  if (row.status === "won") {
    return interpolate(ngettext("Won in %(moves)s move, %(time)s", "Won in %(moves)s moves, %(time)s", row.moves),
      { moves: formatNumber(row.moves), time: clock(row.elapsed_seconds) }, true);
  }
  const count = row.cards_on_foundations;
  const cards = { cards: formatNumber(count) };
  if (row.status === "abandoned") return interpolate(ngettext("Abandoned with %(cards)s card home", "Abandoned with %(cards)s cards home", count), cards, true);
  return interpolate(ngettext("Still playing: %(cards)s card home", "Still playing: %(cards)s cards home", count), cards, true);
}

function statusWord(status) {
  return { won: gettext("Won"), abandoned: gettext("Abandoned"), active: gettext("Playing") }[status] ?? status;
}

/** Routes "daily" (today) and "daily-day" (/daily/2026-12-01). */
export async function mount(root, ctx, name, dayParam) {
  const params = new URLSearchParams(location.search);
  const rule = ruleFromQuery(params);
  const today = await get(`/daily${ruleQuery(rule)}`);
  const day = dayParam ?? today.date;
  const isToday = day === today.date;
  const view = { assisted: params.get("assisted") === "true", page: pageNumber(params.get("page")) };

  const title = isToday ? gettext("Today's daily deal") : gettext("Daily deal");
  const heading = h("header", { class: "day-head" },
    h("h1", {}, rule === "C" ? title : interpolate(gettext("%(title)s: %(rule)s"), { title, rule: ruleName(rule) }, true)),
    h("p", { class: "day-date" }, isDay(day) ? interpolate(gettext("%(date)s (UTC)"), { date: longDay(day) }, true) : day),
    ruleToggle(rule, (chosen) => ctx.navigate((dayParam ? `/daily/${day}` : "/daily") + ruleQuery(chosen))),
    dayNav(ctx, day, today.date, rule));
  const statusBox = h("section", { class: "day-status", "aria-label": gettext("Today's deal") });
  const rankingBox = h("section", { class: "day-ranking", "aria-labelledby": "ranking-title" });
  root.replaceChildren(h("section", { class: "panel daily" }, heading, statusBox, rankingBox));

  if (!isDay(day)) {
    statusBox.replaceChildren(h("p", { class: "empty" }, interpolate(gettext("“%(day)s” is not a date: days are written like 2026-12-01."), { day }, true)));
    return null;
  }
  if (day > today.date) {
    statusBox.replaceChildren(h("p", { class: "empty" }, gettext("That day has not come yet: the daily deal of a day is chosen when it starts.")));
    return null;
  }

  let ticker = 0;
  let closing = 0;
  if (isToday) {
    drawToday(statusBox, ctx, today, rule);
    const countdown = statusBox.querySelector("[data-countdown]");
    const tick = () => {
      const left = secondsUntilClose(day, Date.now());
      countdown.textContent = interpolate(gettext("Closes in %(time)s"), { time: clock(left) }, true);
      if (left > 0) return;
      // Closed by this browser's clock: show the closed day once the server agrees.
      clearInterval(ticker);
      countdown.textContent = gettext("The day has closed.");
      closing ||= setTimeout(() => ctx.navigate(`/daily/${day}${ruleQuery(rule)}`, { replace: true }), CLOSE_GRACE_MS);
    };
    ticker = setInterval(tick, 1000);
    tick();
  }

  async function loadRanking() {
    const query = new URLSearchParams({ page: String(view.page), page_size: String(PAGE_SIZE) });
    if (view.assisted) query.set("assisted", "true");
    if (rule !== "C") query.set("rule", rule);
    try {
      const data = await get(`/daily/${day}?${query}`);
      drawRanking(rankingBox, data, view, (change) => {
        Object.assign(view, change);
        reflectQuery(location.pathname, { rule: rule === "C" ? null : rule, assisted: view.assisted ? "true" : null, page: view.page > 1 ? view.page : null });
        loadRanking();
      });
      if (!isToday) drawPast(statusBox, data, rule);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      statusBox.replaceChildren(h("p", { class: "empty" }, interpolate(gettext("Nobody played the daily deal of %(date)s."), { date: dayInSentence(day) }, true)));
      rankingBox.replaceChildren();
    }
  }
  await loadRanking();

  if (!isToday) return null;
  // A result of today landed (anyone's, mine included): the server re-ranks, the page refetches.
  const refresh = coalesce(async () => {
    drawToday(statusBox, ctx, await get(`/daily${ruleQuery(rule)}`), rule, statusBox.querySelector("[data-countdown]"));
    await loadRanking();
  }, 250);
  const socket = lobbyEvents(ctx, rankingBox, [PUSH.RESULT], (message) => {
    if (message.d.daily === day && message.d.rule === rule) refresh();
  });
  return () => {
    clearInterval(ticker);
    clearTimeout(closing);
    refresh.cancel();
    socket.close();
  };
}

/**
 * A day picker that shows its day in the page's language: the browser writes a date input in
 * its own language (11/03/2026 on a German page), so a button shows the day and opens the
 * input's calendar; the input, invisible over the button, still takes typing and change.
 */
function dayPicker(ctx, day, today, rule) {
  const shown = isDay(day) ? day : today;
  const input = h("input", {
    type: "date", max: today, value: shown, tabindex: "-1", "aria-hidden": "true",
    onchange: (event) => isDay(event.target.value) && ctx.navigate(dayPath(event.target.value, today, rule)),
  });
  const open = () => (input.showPicker ? input.showPicker() : input.focus());
  const date = formatDate(`${shown}T00:00:00Z`, { timeZone: "UTC", dateStyle: "medium" });
  // Its name starts with the day it shows (axe-core: label-content-name-mismatch), outside
  // parentheses, which axe leaves out: a voice command saying the visible text reaches it.
  return h("span", { class: "day-choice" },
    h("button", { type: "button", class: "day-picker", "aria-label": interpolate(gettext("%(date)s: choose a day"), { date }, true), onclick: open }, date),
    input);
}

function dayNav(ctx, day, today, rule) {
  const valid = isDay(day);
  return h("nav", { class: "day-nav", "aria-label": gettext("Other days") },
    valid ? h("a", { href: dayPath(shiftDay(day, -1), today, rule), "data-link": true, rel: "prev" }, gettext("← Previous day")) : null,
    dayPicker(ctx, day, today, rule),
    valid && day < today ? h("a", { href: dayPath(shiftDay(day, 1), today, rule), "data-link": true, rel: "next" }, gettext("Next day →")) : null,
    day !== today ? h("a", { href: dayPath(today, today, rule), "data-link": true }, gettext("Today")) : null);
}

/** Today: the countdown, how many play, and my attempts (first ranked, the rest practice). */
function drawToday(box, ctx, today, rule, countdown = h("p", { class: "countdown", role: "timer", "data-countdown": true })) {
  const players = h("p", { class: "players" },
    interpolate(ngettext(
      "%(count)s ranked player so far. Everybody gets the same cards; the deal's code is revealed when the day closes.",
      "%(count)s ranked players so far. Everybody gets the same cards; the deal's code is revealed when the day closes.",
      today.players), { count: formatNumber(today.players) }, true));
  box.replaceChildren(countdown, dayGrade(today, rule), players, attemptsBlock(ctx, today, rule));
}

function attemptsBlock(ctx, today, rule) {
  const guest = !ctx.me || ctx.me.guest;
  const play = async (button) => {
    button.disabled = true;
    try {
      if (!ctx.me) await startGuest(ctx);
      const state = await post(`/daily/play${ruleQuery(rule)}`);
      ctx.navigate(`/game/${state.id}`);
      ctx.notify(state.ranked
        ? gettext("Your ranked game of today's deal: it counts in the ranking. Good luck!")
        : guest ? gettext("Guest game: guests' games are never ranked. Sign up to be ranked from the next deal.")
          : gettext("Practice game: only your first game on today's deal is ranked."));
    } catch (error) {
      button.disabled = false;
      ctx.notify(error.message, "error", error.code);
    }
  };
  const guestNote = () => h("p", { class: "note guest-note" },
    gettext("As a guest you play the same deal, but guests are never ranked."), " ",
    h("a", { href: "/signup", "data-link": true }, gettext("Sign up to be ranked from the next deal.")));
  if (!today.attempts.length) {
    return h("div", { class: "play" },
      h("button", { type: "button", class: "primary big", onclick: (event) => play(event.currentTarget) },
        ctx.me ? gettext("Play today's deal") : gettext("Play today's deal as a guest")),
      guest ? guestNote() : h("p", { class: "note" }, gettext("Your first game on today's deal is your ranked one: make it count.")),
      ctx.me ? null : h("p", {}, h("a", { href: "/login", "data-link": true }, gettext("Log in")), " ",
        gettext("to play today's deal.")));
  }
  const attempts = today.attempts.map((attempt) =>
    h("li", { "data-game": attempt.game, class: attempt.ranked ? "ranked" : guest ? "guest" : "practice" },
      h("a", { href: `/game/${attempt.game}`, "data-link": true },
        attempt.ranked ? gettext("Ranked game") : guest ? gettext("Guest game (not ranked)") : gettext("Practice game")),
      " · ", statusWord(attempt.status)));
  return h("div", { class: "play" },
    h("h2", {}, gettext("Your games today")),
    h("ul", { class: "attempts" }, attempts),
    today.practice_open
      ? h("button", { type: "button", onclick: (event) => play(event.currentTarget) }, gettext("Play again (practice)"))
      : h("p", { class: "note", "data-note": "practice-closed" }, gettext("Practice opens once your ranked game has ended: until then the deal shows its cards only there.")),
    guest ? guestNote() : h("p", { class: "note" }, gettext("Later attempts are practice: they do not count in the ranking.")));
}

/** A closed day: its code, now public. */
function drawPast(box, data, rule) {
  fill(box,
    h("p", { class: "closed" }, gettext("This day is closed: its ranking is final and every ranked game can be replayed.")),
    data.code ? h("p", { class: "deal-code" }, gettext("Deal code:"), " ", h("code", { "data-code": true }, data.code)) : null,
    h("p", {}, h("a", { href: `/daily/${data.date}/line${ruleQuery(rule)}`, "data-link": true, "data-solver-line": true }, gettext("Replay a solver's winning line"))));
}

/** The empty state of the ranking shown, true to the other one's count (`sections`). */
function emptyRanking(view, sections) {
  if (view.assisted) return gettext("Nobody played this deal with hints.");
  const apart = sections.with_hints;
  if (!apart) return gettext("Nobody has played this deal yet.");
  return interpolate(ngettext(
    "Nobody has played this deal without hints yet; %(count)s player used hints (see “With hints”).",
    "Nobody has played this deal without hints yet; %(count)s players used hints (see “With hints”).",
    apart), { count: formatNumber(apart) }, true);
}

function drawRanking(box, data, view, change) {
  const counted = (label, count) => interpolate(gettext("%(ranking)s (%(count)s)"), { ranking: label, count: formatNumber(count) }, true);
  const tabs = toggleGroup(gettext("Which ranking"), [
    { value: "ranked", label: counted(gettext("Without hints"), data.sections.without_hints) },
    { value: "assisted", label: counted(gettext("With hints"), data.sections.with_hints) },
  ], view.assisted ? "assisted" : "ranked", (value) => change({ assisted: value === "assisted", page: 1 }));
  const columns = [
    { label: gettext("Result"), key: "result", cell: (row) => statusWord(row.status) },
    { label: gettext("Moves"), key: "num", cell: (row) => formatNumber(row.moves) },
    { label: gettext("Time"), key: "num", cell: (row) => clock(row.elapsed_seconds) },
    { label: gettext("Cards home"), key: "num", cell: (row) => `${row.cards_on_foundations}/52` },
    { label: gettext("Score"), key: "num score", cell: (row) => formatNumber(row.score) },
  ];
  if (!data.open) {
    columns.push({
      label: gettext("Replay"),
      cell: (row) => h("a", {
        href: `/daily/${data.date}/games/${row.game}/replay${ruleQuery(data.rule)}`, "data-link": true,
        "aria-label": interpolate(gettext("Replay the game of %(player)s"), { player: row.player }, true),
      }, gettext("Replay")),
    });
  }
  const mine = data.me
    ? h("p", { class: "my-rank" }, interpolate(gettext("Your rank: %(rank)s of %(count)s."), { rank: formatNumber(data.me.rank), count: formatNumber(data.count) }, true), " ", outcome(data.me))
    : null;
  const caption = view.assisted ? gettext("Ranking of games played with hints") : gettext("Ranking of games played without hints");
  fill(box,
    h("h2", { id: "ranking-title" }, gettext("Ranking")),
    h("p", { class: "help" }, gettext("Winners first, by fewer moves then less time; then everyone else by cards home. Tied players share a rank. Score is shown but never ranks.")),
    h("p", { class: "note assisted-note" }, gettext("Games played with hints or winnability checks are ranked apart, under “With hints”, and never count for the daily streak.")),
    tabs,
    mine,
    data.results.length || data.me
      ? rankTable({ caption, rows: data.results, me: data.me, columns })
      : h("p", { class: "empty" }, emptyRanking(view, data.sections)),
    pager(data, view.page, (page) => change({ page })));
  box.dataset.count = data.count;
}
