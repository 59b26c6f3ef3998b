// My games: the unfinished ones to resume, then all newest first, filter by status, page by page.
import { get } from "../api.js";
import { clock, h, when } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";

const STATUS_NAMES = { "": gettext("all"), active: gettext("active"), won: gettext("won"), abandoned: gettext("abandoned") };

/** What kind of game it is, as the server's `origin` says (docs/api.md, section 2). */
const ORIGIN_NAMES = {
  fresh: () => gettext("New deal"),
  "daily-ranked": () => gettext("Daily deal · ranked"),
  "daily-practice": () => gettext("Daily deal · practice"),
  retry: (game) => game.retried_from ? interpolate(gettext("Retry of game %(game)s"), { game: game.retried_from }, true) : gettext("Retry"),
  race: () => gettext("Race"),
  puzzle: () => gettext("Puzzle"),
};
const kind = (game) => h("span", { class: "origin", "data-origin": game.origin }, (ORIGIN_NAMES[game.origin] ?? (() => game.origin))(game));
/** The code, or why it is not shown yet (a running daily's or race's: secret until it ends). */
const codeOf = (game) => game.code ?? gettext("code hidden until it ends");

/** The unfinished games, newest first, each a click away from the table. */
function resumeList(games) {
  return h("section", { class: "unfinished", "aria-labelledby": "unfinished-title" },
    h("h2", { id: "unfinished-title" }, gettext("Unfinished games")),
    h("ul", {}, games.map((game) =>
      h("li", { "data-game": game.id },
        h("a", { href: `/game/${game.id}`, "data-link": true, class: "button" }, gettext("Resume")), " ",
        kind(game), " · ",
        interpolate(ngettext("%(code)s · %(moves)s move · %(home)s/52 home", "%(code)s · %(moves)s moves · %(home)s/52 home", game.move_count),
          { code: codeOf(game), moves: formatNumber(game.move_count), home: game.cards_on_foundations }, true)))));
}

export async function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const params = new URLSearchParams(location.search);
  const status = params.get("status") ?? "";
  const page = Number(params.get("page") ?? 1);
  const query = new URLSearchParams({ page: String(page) });
  if (status) query.set("status", status);
  const [data, unfinished] = await Promise.all([get(`/games?${query}`),
    status || page > 1 ? null : get("/games?status=active&page_size=10")]);
  const filter = h("select", { "aria-label": gettext("Show games"), onchange: (e) => ctx.navigate(`/games${e.target.value ? `?status=${e.target.value}` : ""}`) },
    ["", "active", "won", "abandoned"].map((value) => h("option", { value, selected: value === status }, STATUS_NAMES[value])));
  const rows = data.results.map((game) =>
    h("tr", { "data-game": game.id },
      h("td", {}, kind(game)),
      h("td", {}, h("a", { href: `/game/${game.id}`, "data-link": true }, codeOf(game))),
      h("td", {}, STATUS_NAMES[game.status] ?? game.status), h("td", {}, formatNumber(game.move_count)), h("td", {}, formatNumber(game.score)),
      h("td", {}, `${game.cards_on_foundations}/52`), h("td", {}, clock(game.elapsed_seconds)), h("td", {}, when(game.created_at)),
      h("td", {}, game.status === "active" ? null : h("a", { href: `/game/${game.id}/replay`, "data-link": true, "data-action": "replay" }, gettext("Replay and analysis")))));
  const pageLink = (n, text) => h("a", { href: `/games?${new URLSearchParams({ ...(status && { status }), page: String(n) })}`, "data-link": true }, text);
  root.replaceChildren(h("section", { class: "panel" },
    h("h1", {}, gettext("My games")),
    unfinished?.results.length ? resumeList(unfinished.results) : null,
    filter,
    rows.length
      ? h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": gettext("My games") }, h("table", {}, h("thead", {}, h("tr", {}, [gettext("Kind"), gettext("Code"), gettext("Status"), gettext("Moves"), gettext("Score"), gettext("Home"), gettext("Time"), gettext("Started"), gettext("Analysis")].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows)))
      : h("p", {}, gettext("No games yet.")),
    h("nav", { class: "pages", "aria-label": gettext("Pages") }, data.previous ? pageLink(page - 1, gettext("Newer")) : null, " ", data.next ? pageLink(page + 1, gettext("Older")) : null),
  ));
}
