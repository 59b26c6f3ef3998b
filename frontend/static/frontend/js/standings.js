// Pure helpers for the daily, leaderboard and profile pages: UTC days, the countdown to a day's
// close, shared ranks, page numbers, replay stepping. No rule of the game is decided here: the
// server orders every ranking; these only present what it sent.
import { LANGUAGE } from "./i18n.js";

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `text` is a calendar day written "2026-12-01" (not "2026-02-30", which Date rolls on). */
export function isDay(text) {
  if (!ISO_DAY.test(text ?? "")) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}

/** The UTC day `days` after `day` (negative goes back), as "YYYY-MM-DD". */
export function shiftDay(day, days) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Seconds from `nowMs` until `day` closes (the next UTC midnight), never below zero. */
export function secondsUntilClose(day, nowMs) {
  return Math.max(0, (Date.parse(`${day}T00:00:00Z`) + DAY_MS - nowMs) / 1000);
}

/** The ranks that more than one row of a page shares (ties: 1, 2, 2, 4). */
export function sharedRanks(rows) {
  const seen = new Map();
  for (const row of rows) seen.set(row.rank, (seen.get(row.rank) ?? 0) + 1);
  return new Set([...seen].filter(([, count]) => count > 1).map(([rank]) => rank));
}

/** A rank as shown, in the page's digits: "2=" when tied on the page, else "2" ("1.234" in de). */
export function rankLabel(rank, shared, language = LANGUAGE) {
  const text = new Intl.NumberFormat(language).format(rank);
  return shared.has(rank) ? `${text}=` : text;
}

/**
 * A race rating as players read it: a whole number, and the change of that whole number
 * ("6 (+3)", "−2 (−4)", "1 (±0)"). The API keeps the exact value; the shown change is the
 * difference of the shown ratings, so the two never disagree.
 */
export function ratingText(before, after, language = LANGUAGE) {
  const number = new Intl.NumberFormat(language);
  const shown = (value) => {
    const whole = Math.round(value) || 0; // no "-0"
    return whole < 0 ? `−${number.format(-whole)}` : number.format(whole);
  };
  if (before === null || before === undefined) return shown(after);
  const change = (Math.round(after) || 0) - (Math.round(before) || 0);
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  return `${shown(after)} (${sign}${number.format(Math.abs(change))})`;
}

/** Whether the player's own row is missing from the page shown (so it goes below the table). */
export function ownRowApart(rows, me) {
  return Boolean(me) && !rows.some((row) => row.player === me.player);
}

/** Rows per page asked of every paginated endpoint these pages read. */
export const PAGE_SIZE = 20;

/** How many pages `count` rows fill (at least one, so "page 1 of 1" reads right when empty). */
export function pageCount(count, size = PAGE_SIZE) {
  return Math.max(1, Math.ceil(count / size));
}

/** A page number from the query string, 1 when absent or not a positive whole number. */
export function pageNumber(text) {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** A win rate (0..1, or null) as a percentage with one decimal in `language` ("61.5%", "61,5 %"), or "–". */
export function percent(rate, language = LANGUAGE) {
  if (rate === null || rate === undefined) return "–";
  return new Intl.NumberFormat(language, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rate);
}

/**
 * Replay stepping: the step index after `action` ("first", "prev", "next", "last", or a number)
 * from `index`, within `count` steps.
 */
export function stepTo(action, index, count) {
  const last = Math.max(0, count - 1);
  const target = { first: 0, prev: index - 1, next: index + 1, last }[action] ?? Number(action);
  return Math.min(last, Math.max(0, Number.isFinite(target) ? Math.trunc(target) : index));
}

/**
 * Call `fn` once, `wait` ms after the first of a burst of calls (later calls in the burst join
 * it), so a steady stream of events still refreshes every `wait` ms; `.cancel()` drops it.
 */
export function coalesce(fn, wait) {
  let timer = 0;
  const call = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = 0;
      fn();
    }, wait);
  };
  call.cancel = () => {
    clearTimeout(timer);
    timer = 0;
  };
  return call;
}
