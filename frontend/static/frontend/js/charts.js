// Progress in pictures (issue 41): a profile's charts, drawn by uPlot (vendored, see
// docs/frontend.md) from /players/<name>/charts/<chart>. Each chart has a text summary and its
// data as a table behind a "Show as table" button; lines differ by dash and marker as well as
// colour. On another player's profile, a signed-in viewer's own series are drawn beside theirs
// for the rules both play.
import { get } from "./api.js";
import { h } from "./dom.js";
import { formatDate, formatDuration, formatNumber, gettext, interpolate } from "./i18n.js";
import { fill, ruleName } from "./tables.js";
import uPlot from "../vendor/uplot/uPlot.esm.js";

const STYLESHEET = new URL("../vendor/uplot/uPlot.min.css", import.meta.url).href;
const CHARTS = ["race-rating", "puzzle-rating", "dailies", "win-rate", "wins", "turning-points"];
// Their series solid, yours dashed; each rule its own colour and marker size.
const COLOURS = ["#ffd23f", "#7fd1ff", "#ff9e80", "#b9f6ca"];
const YOURS = [6, 4];

function loadStylesheet() {
  if (!document.querySelector(`link[href="${STYLESHEET}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href: STYLESHEET }));
  }
}

const day = (seconds) => formatDate(seconds * 1000, { dateStyle: "medium" });
const decimal = (value) => (value === null ? "—" : formatNumber(value, { maximumFractionDigits: 1 }));

/** A figure: title, summary, the plot (hidden from screen readers: the table says it all),
 * and the table behind a toggle. */
function figure(name, title, summary, plot, table) {
  const tableId = `chart-table-${name}`;
  // Scrolls when long: focusable, so the keyboard can scroll it too.
  const box = h("div", { class: "chart-table", id: tableId, hidden: true, tabindex: "0", role: "region", "aria-label": title }, table);
  const toggle = h("button", { type: "button", class: "link table-toggle", "aria-expanded": "false", "aria-controls": tableId },
    gettext("Show as table"));
  toggle.addEventListener("click", () => {
    const open = box.hidden;
    box.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? gettext("Hide the table") : gettext("Show as table");
  });
  return h("figure", { class: "chart", "data-chart": name },
    h("h3", {}, title),
    h("p", { class: "chart-summary" }, summary),
    plot ? h("div", { class: "chart-plot", "aria-hidden": "true" }, plot) : null,
    toggle, box);
}

function table(caption, headers, rows) {
  return h("table", { class: "history-table" },
    h("caption", { class: "sr-only" }, caption),
    h("thead", {}, h("tr", {}, headers.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))));
}

/** A uPlot of lines over time: lines [{label, at, values, band?: [low, high], yours?, colour}]. */
function linePlot(width, lines, yValue, bars = false) {
  if (!lines.length) return null;
  const data = uPlot.join(lines.map((line) => [line.at, line.values, ...(line.band ?? [])]));
  const series = [{ label: gettext("Date"), value: (_u, v) => (v === null ? "" : bars ? formatNumber(v) : day(v)) }];
  const bands = [];
  lines.forEach((line, index) => {
    const stroke = line.colour ?? COLOURS[index % COLOURS.length];
    series.push({
      label: line.label, stroke, width: 2, spanGaps: true, dash: line.yours ? YOURS : undefined,
      points: { size: line.yours ? 4 : 6 },
      // Hover or tap: the value, and what happened then (a race's place and the change).
      value: (u, v, _s, idx) => (v === null ? "" : [yValue(v), line.detail?.get(u.data[0][idx])].filter(Boolean).join(" · ")),
      paths: bars ? uPlot.paths.bars({ size: [0.8, 12] }) : undefined, fill: bars ? `${stroke}99` : undefined,
    });
    if (line.band) {
      const low = series.length;
      series.push({ label: "−σ", stroke: `${stroke}55`, width: 1, spanGaps: true, points: { show: false } });
      series.push({ label: "+σ", stroke: `${stroke}55`, width: 1, spanGaps: true, points: { show: false } });
      bands.push({ series: [low + 1, low], fill: `${stroke}22` });
    }
  });
  const axis = { stroke: "#f3f6f1", grid: { stroke: "#ffffff22" }, ticks: { stroke: "#ffffff44" } };
  const el = h("div");
  // eslint-disable-next-line no-new
  new uPlot({
    width, height: 220, series, bands, scales: { x: { time: !bars } },
    axes: [{ ...axis }, { ...axis, values: (_u, ticks) => ticks.map(yValue), size: 56 }],
    legend: { live: true }, cursor: { points: { size: 8 } },
  }, data, el);
  return el;
}

/** Series per rule ({rule: columns}), theirs and (for the rules both play) yours. */
function perRule(theirs, yours, build) {
  const lines = [];
  Object.entries(theirs).forEach(([rule, columns], index) => {
    lines.push({ ...build(columns, rule), colour: COLOURS[index % COLOURS.length] });
    if (yours?.[rule]) {
      lines.push({ ...build(yours[rule], rule), yours: true, colour: COLOURS[index % COLOURS.length],
        label: interpolate(gettext("%(rule)s (you)"), { rule: ruleName(rule) }, true) });
    }
  });
  return lines;
}

const band = (columns) => [
  columns.rating.map((rating, i) => (columns.sigma[i] === null ? null : rating - columns.sigma[i])),
  columns.rating.map((rating, i) => (columns.sigma[i] === null ? null : rating + columns.sigma[i])),
];

function ratingLine(columns, label, event = () => null) {
  const detail = new Map(columns.at.map((at, i) => [at, [event(i), changeText(columns.change[i])].filter(Boolean).join(" ")]));
  return { label, at: columns.at, values: columns.rating, band: band(columns), detail };
}

function changeText(change) {
  if (change === null) return "—";
  return `${change >= 0 ? "+" : "−"}${formatNumber(Math.abs(change), { maximumFractionDigits: 1 })}`;
}

function raceRating(data, mine, width) {
  const rules = Object.entries(data.series);
  const summary = rules.length
    ? rules.map(([rule, c]) => interpolate(gettext("%(rule)s: %(count)s rated races, rating %(rating)s (±%(sigma)s)"),
      { rule: ruleName(rule), count: formatNumber(c.at.length), rating: decimal(c.rating.at(-1)), sigma: decimal(c.sigma.at(-1)) }, true)).join("; ")
    : gettext("No rated race yet.");
  const place = (c) => (i) => interpolate(gettext("place %(place)s"), { place: formatNumber(c.place[i]) }, true);
  const lines = perRule(data.series, mine?.series, (c, rule) => ratingLine(c, ruleName(rule), place(c)));
  const rows = rules.flatMap(([rule, c]) => c.at.map((at, i) => [day(at), ruleName(rule),
    h("a", { href: `/races/${c.race[i]}`, "data-link": true }, c.race[i]), formatNumber(c.place[i]),
    decimal(c.rating[i]), changeText(c.change[i]), decimal(c.sigma[i])]));
  return figure("race-rating", gettext("Race rating"), summary, linePlot(width, lines, decimal),
    table(gettext("Race rating"), [gettext("Date"), gettext("Rule"), gettext("Race"), gettext("Place"), gettext("Rating"), gettext("Change"), gettext("Uncertainty")], rows));
}

function puzzleRating(data, mine, width) {
  const c = data.points;
  const summary = c.at.length
    ? interpolate(gettext("%(count)s rated puzzles, %(solved)s solved; rating %(rating)s (±%(sigma)s)"),
      { count: formatNumber(c.at.length), solved: formatNumber(c.solved.filter(Boolean).length), rating: decimal(c.rating.at(-1)), sigma: decimal(c.sigma.at(-1)) }, true)
    : gettext("No rated puzzle yet.");
  const lines = c.at.length ? [ratingLine(c, gettext("Puzzle rating"))] : [];
  if (lines.length && mine?.points.at.length) lines.push({ ...ratingLine(mine.points, gettext("You")), band: undefined, yours: true, colour: COLOURS[0] });
  const rows = c.at.map((at, i) => [day(at), c.solved[i] ? gettext("Solved") : gettext("Missed"), decimal(c.rating[i]), changeText(c.change[i]), decimal(c.sigma[i])]);
  return figure("puzzle-rating", gettext("Puzzle rating"), summary, linePlot(width, lines, decimal),
    table(gettext("Puzzle rating"), [gettext("Date"), gettext("Answer"), gettext("Rating"), gettext("Change"), gettext("Uncertainty")], rows));
}

const DAILY_STATES = {
  played: ["○", () => gettext("Played")],
  won: ["◐", () => gettext("Won with help")],
  "won-without-help": ["●", () => gettext("Won without help")],
};

/** A calendar per rule: a column per week, a cell per day; each cell's symbol says its state. */
function calendar(data, rule) {
  const first = new Date(`${data.from}T00:00:00Z`);
  const cells = new Map();
  data.cells.date.forEach((date, i) => {
    if (data.cells.rule[i] === rule) cells.set(date, i);
  });
  const days = [];
  for (let at = new Date(first); at.toISOString().slice(0, 10) <= data.to; at.setUTCDate(at.getUTCDate() + 1)) {
    const date = at.toISOString().slice(0, 10);
    const index = cells.get(date);
    const state = index === undefined ? null : data.cells.state[index];
    const title = state
      ? interpolate(gettext("%(date)s: %(state)s, rank %(rank)s"), { date: formatDate(`${date}T12:00:00Z`, { dateStyle: "medium" }), state: DAILY_STATES[state][1](), rank: formatNumber(data.cells.rank[index]) }, true)
      : interpolate(gettext("%(date)s: not played"), { date: formatDate(`${date}T12:00:00Z`, { dateStyle: "medium" }) }, true);
    days.push(h("span", { class: `day ${state ?? "none"}`, title, style: `grid-row: ${((at.getUTCDay() + 6) % 7) + 1}` },
      state ? DAILY_STATES[state][0] : ""));
  }
  return h("div", { class: "calendar", "data-rule": rule },
    h("span", { class: "calendar-rule" }, ruleName(rule)), h("div", { class: "calendar-grid" }, days));
}

function dailies(data, _mine, _width, profile) {
  const c = data.cells;
  const rules = [...new Set(c.rule)];
  const won = c.state.filter((state) => state !== "played").length;
  const clean = c.state.filter((state) => state === "won-without-help").length;
  const streaks = rules.map((rule) => interpolate(gettext("%(rule)s daily streak %(current)s, best %(best)s"),
    { rule: ruleName(rule), current: formatNumber(profile.stats[rule].current_daily_streak), best: formatNumber(profile.stats[rule].best_daily_streak) }, true));
  const summary = c.date.length
    ? [interpolate(gettext("%(played)s dailies played in the last year, %(won)s won, %(clean)s of them without help."),
      { played: formatNumber(c.date.length), won: formatNumber(won), clean: formatNumber(clean) }, true), `${streaks.join("; ")}.`].join(" ")
    : gettext("No daily played in the last year.");
  const legend = h("p", { class: "calendar-legend" }, Object.values(DAILY_STATES).map(([symbol, label]) => h("span", {}, `${symbol} ${label()}`)));
  const plot = c.date.length ? h("div", {}, rules.map((rule) => calendar(data, rule)), legend) : null;
  const rows = c.date.map((date, i) => [
    h("a", { href: `/game/${c.game[i]}`, "data-link": true }, formatDate(`${date}T12:00:00Z`, { dateStyle: "medium" })),
    ruleName(c.rule[i]), DAILY_STATES[c.state[i]][1](), formatNumber(c.rank[i])]);
  return figure("dailies", gettext("A year of dailies"), summary, plot,
    table(gettext("A year of dailies"), [gettext("Day"), gettext("Rule"), gettext("Result"), gettext("Rank")], rows));
}

const percentText = (value) => formatNumber(value, { style: "percent", maximumFractionDigits: 0 });

function winRate(data, mine, width) {
  const rate = (c) => c.wins.map((wins, i) => wins / c.games[i]);
  const rules = Object.entries(data.series);
  const summary = rules.length
    ? rules.map(([rule, c]) => {
      const games = c.games.reduce((a, b) => a + b, 0);
      const wins = c.wins.reduce((a, b) => a + b, 0);
      return interpolate(gettext("%(rule)s: %(wins)s of %(games)s games won (%(rate)s) over %(weeks)s weeks"),
        { rule: ruleName(rule), wins: formatNumber(wins), games: formatNumber(games), rate: percentText(wins / games), weeks: formatNumber(c.at.length) }, true);
    }).join("; ")
    : gettext("No finished game yet.");
  const lines = perRule(data.series, mine?.series, (c, rule) => ({ label: ruleName(rule), at: c.at, values: rate(c) }));
  const rows = rules.flatMap(([rule, c]) => c.at.map((at, i) => [day(at), ruleName(rule), formatNumber(c.games[i]), formatNumber(c.wins[i]), percentText(c.wins[i] / c.games[i])]));
  return figure("win-rate", gettext("Win rate by week"), summary, linePlot(width, lines, percentText),
    table(gettext("Win rate by week"), [gettext("Week of"), gettext("Rule"), gettext("Games"), gettext("Wins"), gettext("Win rate")], rows));
}

function winsOver(name, title, key, format, data, mine, width) {
  const rules = Object.entries(data.series);
  const summary = rules.length
    ? rules.map(([rule, c]) => interpolate(gettext("%(rule)s: %(count)s wins without help, best %(best)s, latest %(latest)s"),
      { rule: ruleName(rule), count: formatNumber(c.at.length), best: format(Math.min(...c[key])), latest: format(c[key].at(-1)) }, true)).join("; ")
    : gettext("No win without help yet.");
  const lines = perRule(data.series, mine?.series, (c, rule) => ({ label: ruleName(rule), at: c.at, values: c[key] }));
  const rows = rules.flatMap(([rule, c]) => c.at.map((at, i) => [
    h("a", { href: `/game/${c.game[i]}`, "data-link": true }, day(at)), ruleName(rule), format(c[key][i])]));
  return figure(name, title, summary, linePlot(width, lines, format),
    table(title, [gettext("Date"), gettext("Rule"), key === "seconds" ? gettext("Time") : gettext("Moves")], rows));
}

function turningPoints(data, _mine, width) {
  const rules = Object.entries(data.series);
  const summary = rules.length
    ? rules.map(([rule, c]) => {
      const most = c.games.indexOf(Math.max(...c.games));
      return interpolate(gettext("%(rule)s: %(count)s lost games analysed, most often lost after move %(move)s"),
        { rule: ruleName(rule), count: formatNumber(c.games.reduce((a, b) => a + b, 0)), move: formatNumber(c.move[most]) }, true);
    }).join("; ")
    : gettext("No analysed lost game yet.");
  const lines = rules.map(([rule, c]) => ({ label: ruleName(rule), at: c.move, values: c.games }));
  const rows = rules.flatMap(([rule, c]) => c.move.map((move, i) => [ruleName(rule), formatNumber(move), formatNumber(c.games[i])]));
  return figure("turning-points", gettext("Where games were lost"), summary, linePlot(width, lines, formatNumber, true),
    table(gettext("Where games were lost"), [gettext("Rule"), gettext("Lost after move"), gettext("Games")], rows));
}

async function charts(username) {
  const answers = await Promise.all(CHARTS.map((chart) => get(`/players/${encodeURIComponent(username)}/charts/${chart}`)));
  return Object.fromEntries(CHARTS.map((chart, i) => [chart, answers[i]]));
}

/** Fill `box` with the profile's charts; `me` (a signed-in viewer of another's profile) adds
 * their own series beside. */
export async function drawCharts(box, profile, me) {
  loadStylesheet();
  const [theirs, mine] = await Promise.all([
    charts(profile.username),
    me && me.username !== profile.username ? charts(me.username).catch(() => null) : null,
  ]);
  const width = Math.max(260, Math.min(box.clientWidth || 640, 720) - 8);
  fill(box,
    h("h2", { id: "charts-title" }, gettext("Progress")),
    mine ? h("p", { class: "note" }, gettext("Your own lines are dashed, beside this player's, for the rules you both play.")) : null,
    raceRating(theirs["race-rating"], mine?.["race-rating"], width),
    puzzleRating(theirs["puzzle-rating"], mine?.["puzzle-rating"], width),
    dailies(theirs.dailies, null, width, profile),
    winRate(theirs["win-rate"], mine?.["win-rate"], width),
    winsOver("win-time", gettext("Time to win"), "seconds", formatDuration, theirs.wins, mine?.wins, width),
    winsOver("win-moves", gettext("Moves to win"), "moves", formatNumber, theirs.wins, mine?.wins, width),
    turningPoints(theirs["turning-points"], null, width));
}
