// The leaderboards: one board at a time, per rule, page by page, refreshed when results land.
// The server orders every board; score is shown in each row but never sorts anything here.
import { get } from "../api.js";
import { clock, h } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { PUSH } from "../pushes.js";
import { coalesce, PAGE_SIZE, pageNumber, percent } from "../standings.js";
import { fill, lobbyEvents, pager, rankTable, reflectQuery, RULES, ruleToggle, toggleGroup } from "../tables.js";

/** Refetch at most this often while results keep landing. */
const REFRESH_WAIT_MS = 1500;

const gameLink = (id, text) => (id ? h("a", { href: `/game/${id}`, "data-link": true }, text) : text);

/**
 * Each board's short name, title (in the page's language, whatever language the API answers in)
 * and the columns it shows, its own measure first. `minimum`: the win-rate board's `min_games`.
 */
function boardColumns(minimum) {
  const wins = { label: gettext("Wins"), key: "num", cell: (row) => formatNumber(row.wins) };
  const games = { label: gettext("Finished"), key: "num", cell: (row) => formatNumber(row.games) };
  const rate = { label: gettext("Win rate"), key: "num", cell: (row) => percent(row.win_rate) };
  const time = { label: gettext("Best time"), key: "num", cell: (row) => gameLink(row.best_time_game, row.best_time_seconds === null ? "–" : clock(row.best_time_seconds)) };
  const moves = { label: gettext("Fewest moves"), key: "num", cell: (row) => gameLink(row.fewest_moves_game, row.fewest_moves === null ? "–" : formatNumber(row.fewest_moves)) };
  const streak = { label: gettext("Best daily streak"), key: "num", cell: (row) => formatNumber(row.best_daily_streak) };
  const current = { label: gettext("Current streak"), key: "num", cell: (row) => formatNumber(row.current_daily_streak) };
  const score = { label: gettext("Best score"), key: "num score", cell: (row) => formatNumber(row.best_score) };
  const measure = (column) => ({ ...column, key: `${column.key} measure` });
  return {
    wins: { short: gettext("Most wins"), title: gettext("Most wins"), columns: [measure(wins), games, rate, score] },
    "win-rate": {
      short: gettext("Win rate"),
      title: interpolate(ngettext("Best win rate (at least %(count)s finished game)", "Best win rate (at least %(count)s finished games)", minimum), { count: formatNumber(minimum) }, true),
      columns: [measure(rate), wins, games, score],
    },
    fastest: { short: gettext("Fastest"), title: gettext("Fastest win (without hints)"), columns: [measure(time), wins, score] },
    "fewest-moves": { short: gettext("Fewest moves"), title: gettext("Fewest-move win (without hints)"), columns: [measure(moves), wins, score] },
    "daily-streak": {
      short: gettext("Daily streak"),
      title: gettext("Longest daily streak (consecutive UTC days with a daily won without hints)"),
      columns: [measure(streak), current, score],
    },
  };
}

/** How this board treats games played with help, as the server says (`counts_assisted`). */
export function assistedNote(countsAssisted) {
  return h("p", { class: "note assisted-note" }, countsAssisted
    ? gettext("Games played with hints or winnability checks count on this board like any other game; only the record boards (fastest, fewest moves, daily streak) leave them out.")
    : gettext("Games played with hints or winnability checks do not count on this board: best time, fewest moves and daily streaks are set only by games played without them. They still count as wins."));
}

export async function mount(root, ctx) {
  const boards = await get("/leaderboards");
  const known = boardColumns(boards.find((b) => b.name === "win-rate")?.min_games ?? 0);
  const params = new URLSearchParams(location.search);
  const view = {
    board: boards.some((b) => b.name === params.get("board")) ? params.get("board") : boards[0].name,
    rule: RULES.includes(params.get("rule")) ? params.get("rule") : "C",
    page: pageNumber(params.get("page")),
  };
  const picker = h("div", { class: "board-picker" });
  const body = h("div", { class: "board-body", "aria-live": "polite" });
  root.replaceChildren(h("section", { class: "panel leaderboards" },
    h("h1", {}, gettext("Leaderboards")),
    h("p", { class: "help" }, gettext("Ranked by each board's own measure; ties share a rank. Score is shown, never ranked on: take-backs can raise it.")),
    picker, body));

  let loading = 0;
  async function load() {
    const mine = ++loading;
    const query = new URLSearchParams({ rule: view.rule, page: String(view.page), page_size: String(PAGE_SIZE) });
    const data = await get(`/leaderboards/${view.board}?${query}`);
    if (mine !== loading) return; // a newer request is on its way
    const board = known[data.board] ?? { columns: [] };
    picker.replaceChildren(
      toggleGroup(gettext("Leaderboard"), boards.map((b) => ({ value: b.name, label: known[b.name]?.short ?? b.title })), view.board, (board) => change({ board, page: 1 })),
      ruleToggle(view.rule, (rule) => change({ rule, page: 1 })));
    fill(body,
      h("h2", {}, board.title ?? data.title),
      assistedNote(data.counts_assisted),
      data.results.length || data.me
        ? rankTable({ caption: data.title, rows: data.results, me: data.me, columns: board.columns })
        : h("p", { class: "empty" }, gettext("Nobody is on this board yet.")),
      pager(data, view.page, (page) => change({ page })));
  }

  function change(next) {
    Object.assign(view, next);
    reflectQuery("/leaderboards", { board: view.board, rule: view.rule, page: view.page > 1 ? view.page : null });
    load();
  }

  await load();
  const refresh = coalesce(load, REFRESH_WAIT_MS);
  const socket = lobbyEvents(ctx, body, [PUSH.RESULT, PUSH.GAME_FINISHED], () => refresh());
  return () => {
    refresh.cancel();
    socket.close();
  };
}
