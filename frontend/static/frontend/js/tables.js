// Building blocks of the ranking pages: rank tables with the player's own row, pagers, the
// rule toggle, tabs, and the lobby feed that tells a page to refresh.
import { h } from "./dom.js";
import { formatNumber, gettext, interpolate } from "./i18n.js";
import { connectionBanner, LiveSocket } from "./socket.js";
import { ownRowApart, pageCount, rankLabel, sharedRanks } from "./standings.js";
import { RULES, ruleName } from "./variants.js";

export { RULES, ruleName };

/** Replace an element's children, skipping the null/false of optional parts (as `h` does). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

export function playerLink(name) {
  return h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true }, name);
}

/**
 * A ranking table. columns: [{label, cell(row) -> node|text, key?}] after the rank and player
 * columns; `me` (the player's own row) is highlighted in place, or shown below when off the page.
 */
export function rankTable({ caption, rows, me, columns }) {
  const shared = sharedRanks(rows);
  const line = (row, extra = "") => {
    const mine = me && row.player === me.player;
    return h("tr", { class: [mine ? "mine" : "", extra].join(" ").trim() || null, "data-player": row.player, "aria-current": mine ? "true" : null },
      h("td", { class: "rank" }, rankLabel(row.rank, shared)),
      h("td", { class: "player" }, playerLink(row.player)),
      columns.map((column) => h("td", { class: column.key ?? null }, column.cell(row))));
  };
  const body = h("tbody", {}, rows.map((row) => line(row)));
  if (ownRowApart(rows, me)) {
    body.append(h("tr", { class: "gap", "aria-hidden": "true" }, h("td", { colspan: String(columns.length + 2) }, "⋯")));
    body.append(line(me, "apart"));
  }
  return h("table", { class: "ranking" },
    h("caption", { class: "sr-only" }, caption),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "rank" }, gettext("Rank")),
      h("th", { scope: "col" }, gettext("Player")),
      columns.map((column) => h("th", { scope: "col", class: column.key ?? null }, column.label)))),
    body);
}

/** Previous/next page buttons and "Page 2 of 5"; onPage(n) loads page n. */
export function pager(data, page, onPage) {
  const pages = pageCount(data.count);
  if (pages <= 1) return null;
  return h("nav", { class: "pages", "aria-label": gettext("Pages") },
    h("button", { type: "button", disabled: !data.previous, onclick: () => onPage(page - 1) }, gettext("Previous page")),
    h("span", { class: "page-of" }, interpolate(gettext("Page %(page)s of %(pages)s"), { page: formatNumber(page), pages: formatNumber(pages) }, true)),
    h("button", { type: "button", disabled: !data.next, onclick: () => onPage(page + 1) }, gettext("Next page")));
}

/** A row of toggle buttons (one pressed): options [{value, label}], onChange(value). */
export function toggleGroup(label, options, current, onChange) {
  return h("div", { class: "toggle", role: "group", "aria-label": label },
    options.map((option) => h("button", {
      type: "button",
      "aria-pressed": option.value === current ? "true" : "false",
      "data-value": option.value,
      onclick: () => option.value !== current && onChange(option.value),
    }, option.label)));
}

export function ruleToggle(current, onChange) {
  return toggleGroup(gettext("Rules"), RULES.map((value) => ({ value, label: ruleName(value) })), current, onChange);
}

/** Keep the address bar in step with what the page shows (without reloading the page). */
export function reflectQuery(path, params) {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== null && value !== undefined && value !== ""));
  const text = query.toString();
  history.replaceState(null, "", text ? `${path}?${text}` : path);
}

/**
 * Listen to the lobby feed for the event types given; `el.dataset.live` says whether the feed is
 * up ("open"/"lost"). Returns the socket: close it on unmount.
 */
export function lobbyEvents(ctx, el, types, onEvent) {
  return new LiveSocket("/ws/v1/lobby/", {
    onStatus(what, detail) {
      el.dataset.live = what;
      ctx.banner(connectionBanner(what, detail));
    },
    onMessage(message) {
      if (types.includes(message.t)) onEvent(message);
    },
  });
}

/** An arena's title: the schedule's own arenas named in the reader's language, a player's by
 * the name given, or else by whose it is. */
export function arenaTitle(arena) {
  const scheduled = { hourly: gettext("Hourly arena"), daily: gettext("Daily arena"), weekly: gettext("Weekly arena") };
  if (arena.kind === "scheduled" && scheduled[arena.name]) return scheduled[arena.name];
  if (arena.name) return arena.name;
  return arena.creator ? interpolate(gettext("%(player)s's arena"), { player: arena.creator }, true) : gettext("An arena");
}
