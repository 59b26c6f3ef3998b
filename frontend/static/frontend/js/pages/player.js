// A public profile: statistics per rule and the history of finished games, page by page.
import { get } from "../api.js";
import { drawCharts } from "../charts.js";
import { clock, h, when } from "../dom.js";
import { formatDate, formatNumber, gettext, interpolate } from "../i18n.js";
import { PAGE_SIZE, pageNumber, percent, ratingText } from "../standings.js";
import { fill, pager, reflectQuery, RULES, ruleName, ruleToggle } from "../tables.js";
import { dayInSentence } from "./daily.js";

const gameLink = (id, text) => (id ? h("a", { href: `/game/${id}`, "data-link": true }, text) : text);

function statsCard(stats) {
  const item = (label, key, value, describedBy = null) =>
    [h("dt", {}, label), h("dd", { "data-stat": key, "aria-describedby": describedBy }, value)];
  // Records come only from wins without help (the server's rule): wins but no record means
  // every win had help, which the card's note says under a plain dash (a long phrase beside
  // the number would wrap in a card this narrow). A rule never played has no best score.
  const helpOnly = stats.wins > 0 && stats.best_time_seconds === null;
  const note = helpOnly ? `help-only-${stats.rule}` : null;
  const count = formatNumber;
  return h("section", { class: "stats-card", "data-rule": stats.rule, "aria-label": ruleName(stats.rule) },
    h("h2", {}, ruleName(stats.rule)),
    h("dl", {},
      item(gettext("Games"), "games", count(stats.games)),
      item(gettext("Wins"), "wins", count(stats.wins)),
      item(gettext("Win rate"), "win_rate", percent(stats.win_rate)),
      item(gettext("Current streak"), "current_streak", count(stats.current_streak)),
      item(gettext("Best streak"), "best_streak", count(stats.best_streak)),
      item(gettext("Best time"), "best_time", gameLink(stats.best_time_game, stats.best_time_seconds === null ? "–" : clock(stats.best_time_seconds)), note),
      item(gettext("Fewest moves"), "fewest_moves", gameLink(stats.fewest_moves_game, stats.fewest_moves === null ? "–" : count(stats.fewest_moves)), note),
      item(gettext("Best score"), "best_score", stats.games ? count(stats.best_score) : "–"),
      item(gettext("Daily streak"), "daily_streak", count(stats.current_daily_streak)),
      item(gettext("Best daily streak"), "best_daily_streak", count(stats.best_daily_streak))),
    note ? h("p", { class: "card-note", id: note }, gettext("– (only wins with help)")) : null);
}

/** The server's rule for games played with help (the profile's `assisted_games`), in words. */
function assistedNote() {
  return h("p", { class: "note assisted-note" },
    gettext("Games played with hints or winnability checks count as games and wins (win rate, streaks), but best time, fewest moves and the daily streak come only from games played without them."));
}

function dealCell(entry) {
  if (entry.daily) {
    const label = interpolate(entry.ranked ? gettext("Daily %(date)s (ranked)") : gettext("Daily %(date)s (practice)"), { date: dayInSentence(entry.daily) }, true);
    return h("a", { href: `/game/${entry.game}`, "data-link": true }, label);
  }
  return h("a", { href: `/game/${entry.game}`, "data-link": true }, entry.code);
}

/** Race statistics per rule (every race: first places are wins), the rating from rated races,
 * and the latest races with the place and the rating change. */
function raceStats(races) {
  const raced = RULES.filter((rule) => races.stats[rule]);
  return [
    h("h2", { id: "races-title" }, gettext("Races")),
    raced.length
      ? h("ul", { class: "race-ratings" }, raced.map((rule) => {
        const counts = races.stats[rule];
        const rating = races.ratings[rule];
        return h("li", { "data-rule": rule },
          interpolate(gettext("%(rule)s: %(races)s races, %(wins)s wins, %(podiums)s podiums"),
            { rule: ruleName(rule), races: formatNumber(counts.races), wins: formatNumber(counts.wins), podiums: formatNumber(counts.podiums) }, true),
          rating ? [" · ", interpolate(gettext("rating %(rating)s"), { rating: ratingText(null, rating.rating) }, true)] : null);
      }))
      : h("p", { class: "empty" }, gettext("No race yet.")),
    races.history.length
      ? h("table", { class: "history-table race-history" },
        h("thead", {}, h("tr", {}, [gettext("Finished"), gettext("Race"), gettext("Place"), gettext("Cards home"), gettext("Moves"), gettext("Rating")].map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, races.history.map((entry) => h("tr", { "data-room": entry.room },
          h("td", {}, entry.finished_at ? when(entry.finished_at) : ""),
          h("td", {}, h("a", { href: `/races/${entry.room}`, "data-link": true }, entry.room), " · ", ruleName(entry.rule)),
          h("td", {}, interpolate(gettext("%(place)s of %(count)s"), { place: formatNumber(entry.place), count: formatNumber(entry.racers) }, true)),
          h("td", {}, `${entry.cards_on_foundations}/52`),
          h("td", {}, formatNumber(entry.moves)),
          h("td", {}, entry.rating_after === null ? "—" : ratingText(entry.rating_before, entry.rating_after))))))
      : null,
  ];
}

export async function mount(root, ctx, _name, username) {
  let profile;
  try {
    profile = await get(`/players/${encodeURIComponent(username)}`);
  } catch (error) {
    if (error.status !== 404) throw error;
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", {}, gettext("Player not found")),
      h("p", {}, interpolate(gettext("Nobody plays here under the name %(name)s."), { name: username }, true))));
    return null;
  }
  const params = new URLSearchParams(location.search);
  const view = { rule: RULES.includes(params.get("rule")) ? params.get("rule") : "C", page: pageNumber(params.get("page")) };
  const historyBox = h("section", { class: "history", "aria-labelledby": "history-title" });
  const racesBox = h("section", { class: "race-stats", "aria-labelledby": "races-title", "data-part": "races" });
  const chartsBox = h("section", { class: "charts", "aria-labelledby": "charts-title", "data-part": "charts" });
  root.replaceChildren(h("section", { class: "panel profile" },
    h("h1", {}, profile.username),
    h("p", { class: "joined" }, interpolate(gettext("Playing since %(date)s"), { date: formatDate(profile.joined, { dateStyle: "long" }) }, true),
      ctx.me?.username === profile.username ? [" · ", gettext("This is you.")] : null),
    h("div", { class: "stats-cards" }, RULES.map((rule) => statsCard(profile.stats[rule]))),
    assistedNote(),
    chartsBox,
    racesBox,
    historyBox));
  drawCharts(chartsBox, profile, ctx.me).catch(() => null);
  get(`/players/${encodeURIComponent(profile.username)}/races`).then((races) => fill(racesBox, raceStats(races))).catch(() => null);

  async function load() {
    const query = new URLSearchParams({ rule: view.rule, page: String(view.page), page_size: String(PAGE_SIZE) });
    const data = await get(`/players/${encodeURIComponent(profile.username)}/history?${query}`);
    const columns = [
      [gettext("Finished"), null, (entry) => when(entry.finished_at)],
      [gettext("Deal"), null, dealCell],
      [gettext("Result"), null, (entry) => (entry.won ? gettext("Won") : gettext("Not won"))],
      [gettext("Moves"), "num", (entry) => formatNumber(entry.moves)],
      [gettext("Time"), "num", (entry) => clock(entry.seconds)],
      [gettext("Cards home"), "num", (entry) => `${entry.cards_on_foundations}/52`],
      [gettext("Score"), "num score", (entry) => formatNumber(entry.score)],
      [gettext("Assists"), null, (entry) => (entry.assisted ? gettext("Hints") : "")],
      [gettext("Analysis"), null, (entry) => h("a", { href: `/game/${entry.game}/replay`, "data-link": true, "data-action": "replay" }, gettext("Replay"))],
    ];
    const rows = data.results.map((entry) => h("tr", { "data-game": entry.game },
      columns.map(([, key, cell]) => h("td", { class: key }, cell(entry)))));
    const headers = h("thead", {}, h("tr", {}, columns.map(([label, key]) => h("th", { scope: "col", class: key }, label))));
    fill(historyBox,
      h("h2", { id: "history-title" }, gettext("History")),
      ruleToggle(view.rule, (rule) => change({ rule, page: 1 })),
      rows.length
        ? h("table", { class: "history-table game-history" }, headers, h("tbody", {}, rows))
        : h("p", { class: "empty" }, interpolate(gettext("No finished %(rule)s games yet."), { rule: ruleName(view.rule) }, true)),
      pager(data, view.page, (page) => change({ page })));
  }

  function change(next) {
    Object.assign(view, next);
    reflectQuery(location.pathname, { rule: view.rule === "C" ? null : view.rule, page: view.page > 1 ? view.page : null });
    load();
  }

  await load();
  return null;
}
