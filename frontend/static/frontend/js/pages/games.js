// My games: newest first, filter by status, page by page.
import { get } from "../api.js";
import { clock, h, when } from "../dom.js";

export async function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const params = new URLSearchParams(location.search);
  const status = params.get("status") ?? "";
  const page = Number(params.get("page") ?? 1);
  const query = new URLSearchParams({ page: String(page) });
  if (status) query.set("status", status);
  const data = await get(`/games?${query}`);
  const filter = h("select", { "aria-label": "Show games", onchange: (e) => ctx.navigate(`/games${e.target.value ? `?status=${e.target.value}` : ""}`) },
    ["", "active", "won", "abandoned"].map((value) => h("option", { value, selected: value === status }, value || "all")));
  const rows = data.results.map((game) =>
    h("tr", {},
      h("td", {}, h("a", { href: `/game/${game.id}`, "data-link": true }, game.code)),
      h("td", {}, game.status), h("td", {}, game.move_count), h("td", {}, game.score),
      h("td", {}, `${game.cards_on_foundations}/52`), h("td", {}, clock(game.elapsed_seconds)), h("td", {}, when(game.created_at))));
  const pageLink = (n, text) => h("a", { href: `/games?${new URLSearchParams({ ...(status && { status }), page: String(n) })}`, "data-link": true }, text);
  root.replaceChildren(h("section", { class: "panel" },
    h("h1", {}, "My games"), filter,
    rows.length
      ? h("table", {}, h("thead", {}, h("tr", {}, ["Code", "Status", "Moves", "Score", "Home", "Time", "Started"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows))
      : h("p", {}, "No games yet."),
    h("nav", { class: "pages", "aria-label": "Pages" }, data.previous ? pageLink(page - 1, "Newer") : null, " ", data.next ? pageLink(page + 1, "Older") : null),
  ));
}
