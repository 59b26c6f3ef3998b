// The win: the cards cascade off the foundations, then the result (time, moves, score, the rank
// on the daily board) and the ways on. Loaded only when a game is won on screen; under
// prefers-reduced-motion the cards stay put and only the result shows.
import { get, post } from "./api.js";
import { clock, h } from "./dom.js";
import { formatDate, formatNumber, gettext, interpolate } from "./i18n.js";
import { makeCard } from "./render.js";
import { ruleQuery } from "./variants.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
/** The cascade's physics, in pixels and seconds: a card falls, bounces and leaves the screen. */
const GRAVITY = 2400;
const BOUNCE = 0.7;
const STEP_S = 1 / 30;
const LONGEST_FLIGHT_S = 3;
const LAUNCH_EVERY_MS = 55;

/**
 * Celebrate `state`'s win: `board` is the table's element (its foundations launch the cards),
 * `signal` aborts everything when the page goes away.
 */
export async function celebrate(ctx, state, { board, spectating, signal }) {
  if (signal.aborted) return;
  const rank = dailyRank(ctx, state, spectating).catch(() => "");
  if (!matchMedia("(prefers-reduced-motion: reduce)").matches) await cascade(board, state, signal);
  if (!signal.aborted) showResult(ctx, state, spectating, rank, signal);
}

/** Every card leaves its foundation, kings first, round the four piles, and bounces away. */
function cascade(board, state, signal) {
  const slots = state.foundations.map((_, index) => document.getElementById(`slot-f${index}`)?.getBoundingClientRect());
  if (slots.some((slot) => !slot)) return Promise.resolve();
  const layer = h("div", { class: `cascade${board.classList.contains("four-colour") ? " four-colour" : ""}`, "aria-hidden": "true", "data-launched": "0" },
    h("p", { class: "skip-note" }, matchMedia("(pointer: coarse)").matches ? gettext("Tap to skip") : gettext("Click or press a key to skip")));
  for (const name of ["--card-w", "--card-h"]) layer.style.setProperty(name, board.style.getPropertyValue(name));
  const piles = slots.map((slot) => place(h("div", {}), slot.x, slot.y));
  const cardW = slots[0].width;
  const cardH = slots[0].height;
  layer.append(...piles);
  document.body.append(layer);
  board.classList.add("cascading");

  const timers = [];
  const flights = [];
  return new Promise((resolve) => {
    const finish = () => {
      timers.forEach(clearTimeout);
      flights.forEach((flight) => flight.cancel());
      layer.remove();
      board.classList.remove("cascading");
      document.removeEventListener("keydown", finish);
      resolve();
    };
    layer.addEventListener("click", finish);
    document.addEventListener("keydown", finish);
    signal.addEventListener("abort", finish);
    const showPile = (index, rank) => {
      const top = rank >= 0 ? unnamed(makeCard(`${RANKS[rank]}${state.foundations[index].suit}`, true)) : h("div", {});
      piles[index].replaceWith(place(top, slots[index].x, slots[index].y));
      piles[index] = top;
    };
    state.foundations.forEach((_, index) => showPile(index, RANKS.length - 1));
    for (let n = 0; n < 52; n++) {
      const index = n % 4;
      const rank = RANKS.length - 1 - Math.floor(n / 4);
      timers.push(setTimeout(() => {
        showPile(index, rank - 1);
        const card = unnamed(makeCard(`${RANKS[rank]}${state.foundations[index].suit}`, true));
        layer.append(card);
        layer.dataset.launched = String(n + 1);
        const flight = card.animate(path(slots[index], cardW, cardH), { duration: LONGEST_FLIGHT_S * 1000, fill: "forwards" });
        flights.push(flight);
        flight.finished.then(() => card.remove(), () => null);
        if (n === 51) flight.finished.then(finish, () => null);
      }, n * LAUNCH_EVERY_MS));
    }
  });
}

/** A bouncing flight from `slot`, mostly across the screen and off it, as evenly timed keyframes. */
function path(slot, cardW, cardH) {
  const floor = window.innerHeight - cardH;
  const towardsLeft = slot.x + cardW / 2 > window.innerWidth / 2 ? Math.random() < 0.75 : Math.random() < 0.25;
  const vx = (towardsLeft ? -1 : 1) * (260 + Math.random() * 420);
  let vy = -200 - Math.random() * 700;
  let x = slot.x;
  let y = slot.y;
  const frames = [];
  for (let t = 0; t <= LONGEST_FLIGHT_S; t += STEP_S) {
    frames.push({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)` });
    x += vx * STEP_S;
    vy += GRAVITY * STEP_S;
    y += vy * STEP_S;
    if (y > floor) {
      y = floor;
      vy = -vy * BOUNCE;
    }
  }
  return frames;
}

function place(el, x, y) {
  el.style.transform = `translate(${x}px, ${y}px)`;
  return el;
}

/** A drawn card without the table's id (the table keeps its own card of that name). */
function unnamed(el) {
  el.removeAttribute("id");
  el.removeAttribute("role");
  return el;
}

/** The sentence about the daily board: the rank from the server, or why the game is not ranked. */
async function dailyRank(ctx, state, spectating) {
  if (!state.daily) return "";
  if (!state.ranked) {
    return ctx.me?.guest && !spectating
      ? gettext("Guest games are not ranked on the daily board.")
      : gettext("A practice game: only the first attempt at the day's deal is ranked.");
  }
  const day = await get(`/daily/${state.daily}?assisted=${state.assisted}${ruleQuery(state.rule, "&")}`);
  const row = spectating ? day.results.find((entry) => entry.player === state.owner) : day.me;
  if (!row) return "";
  const fmt = state.assisted
    ? gettext("Rank %(rank)s of %(count)s among the games with hints on the daily deal of %(date)s.")
    : gettext("Rank %(rank)s of %(count)s on the daily deal of %(date)s.");
  return interpolate(fmt, {
    rank: formatNumber(row.rank), count: formatNumber(day.count),
    date: formatDate(state.daily, { dateStyle: "long", timeZone: "UTC" }),
  }, true);
}

function figure(label, value, key) {
  return h("div", {}, h("dt", {}, label), h("dd", { "data-stat": key }, value));
}

function showResult(ctx, state, spectating, rank, signal) {
  const title = spectating ? interpolate(gettext("%(name)s won!"), { name: state.owner }, true) : gettext("You won!");
  const rankLine = h("p", { class: "daily-rank", "data-stat": "daily-rank" });
  const start = async (button, path, body) => {
    button.disabled = true;
    try {
      const next = await post(path, body);
      dialog.close();
      ctx.navigate(`/game/${next.id}`);
    } catch (error) {
      button.disabled = false;
      ctx.notify(error.message, "error", error.code);
    }
  };
  // The same deal: its code, or (a running day's hidden code) another go at today's deal.
  const again = state.code ? ["/games", { code: state.code }] : [`/daily/play${ruleQuery(state.rule)}`, {}];
  const dialog = h("dialog", { class: "dialog win", "aria-labelledby": "win-title" },
    h("h2", { id: "win-title" }, title),
    h("dl", { class: "result" },
      figure(gettext("Time"), clock(state.elapsed_seconds), "time"),
      figure(gettext("Moves"), formatNumber(state.move_count), "moves"),
      figure(gettext("Score"), formatNumber(state.score), "score")),
    state.daily ? rankLine : null,
    state.code ? h("p", {}, interpolate(gettext("Deal %(code)s"), { code: state.code }, true)) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, gettext("See the table")),
      h("a", { href: `/game/${state.id}/replay`, "data-link": true, "data-action": "replay", class: "button secondary", onclick: () => dialog.close() }, gettext("Replay and analysis")),
      ctx.me ? h("button", { type: "button", "data-action": "play-again", onclick: (event) => start(event.currentTarget, ...again) },
        state.code ? gettext("Play again") : gettext("Play again (practice)")) : null,
      ctx.me ? h("button", { type: "button", class: "primary", "data-action": "next-deal", onclick: (event) => start(event.currentTarget, "/games", { rule: state.rule }) }, gettext("Next deal")) : null),
  );
  rank.then((text) => {
    rankLine.textContent = text;
    if (text && state.ranked) {
      rankLine.append(" ", h("a", { href: `/daily/${state.daily}${ruleQuery(state.rule)}`, "data-link": true, onclick: () => dialog.close() }, gettext("See the board")));
    }
  });
  dialog.addEventListener("close", () => dialog.remove());
  signal.addEventListener("abort", () => dialog.close());
  document.body.append(dialog);
  dialog.showModal();
}
