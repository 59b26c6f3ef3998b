// The arenas: the running, upcoming and finished public arenas (join, or open one), and a form
// to make one's own (public or private, a rule, a start, a length). Read again every few seconds.
import { get, post } from "../api.js";
import { field, h, when } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { startGuest } from "../session.js";
import { arenaTitle, fill, ruleName, ruleToggle } from "../tables.js";

const POLL_MS = 5000;

export async function mount(root, ctx) {
  let rule = "C";
  let timer = 0;
  const lists = {
    running: h("section", { class: "panel", "data-part": "running" }),
    upcoming: h("section", { class: "panel", "data-part": "upcoming" }),
    finished: h("section", { class: "panel", "data-part": "finished" }),
  };
  const titles = { running: gettext("Running now"), upcoming: gettext("Coming up"), finished: gettext("Finished") };
  const empty = {
    running: gettext("No arena is running right now."),
    upcoming: gettext("No arena is planned yet."),
    finished: gettext("No arena has finished yet."),
  };
  Object.entries(lists).forEach(([status, list]) => fill(list, h("h2", {}, titles[status])));
  const name = h("input", { name: "name", maxlength: "60", autocomplete: "off" });
  const isPrivate = h("input", { type: "checkbox", name: "private" });
  const start = h("input", { type: "datetime-local", name: "starts_at" });
  const minutes = h("input", { type: "number", name: "minutes", min: "10", max: "180", value: "30", required: true });
  const rules = h("div", { "data-part": "rule" });
  const drawRules = () => fill(rules, ruleToggle(rule, (value) => { rule = value; drawRules(); }));
  drawRules();
  const create = h("form", { class: "panel", "data-part": "create", onsubmit: createArena },
    h("h2", {}, gettext("Your own arena")),
    h("p", {}, gettext("Everyone who joins plays the same deals, for points, until the end. Your own arenas are never rated.")),
    field(gettext("Name (optional)"), name),
    rules,
    h("label", { class: "choice" }, isPrivate, " ", gettext("Private (not listed: reached only by its link)")),
    field(gettext("Start (empty: now)"), start),
    field(gettext("Length (minutes, 10 to 180)"), minutes),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", "data-action": "create-arena" }, gettext("Make the arena"))));
  root.replaceChildren(h("h1", {}, gettext("Arenas")),
    h("p", { class: "note" }, gettext("Scheduled tournaments: join any time before the end and play deal after deal. A win scores 2, from the third win in a row 4; a game not won scores 1 with 26 cards home.")),
    lists.running, lists.upcoming, create, lists.finished);

  async function createArena(event) {
    event.preventDefault();
    try {
      if (!ctx.me) await startGuest(ctx);
      const body = { rule, minutes: Number(minutes.value), private: isPrivate.checked, name: name.value.trim() };
      if (start.value) body.starts_at = new Date(start.value).toISOString();
      const arena = await post("/arenas", body);
      ctx.navigate(arena.link);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  async function join(arena) {
    try {
      if (!ctx.me) await startGuest(ctx);
      await post(`/arenas/${encodeURIComponent(arena.id)}/join`);
      ctx.navigate(arena.link);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  function item(arena) {
    const time = arena.status === "upcoming"
      ? interpolate(gettext("starts %(time)s"), { time: when(arena.starts_at) }, true)
      : arena.status === "running" ? interpolate(gettext("ends %(time)s"), { time: when(arena.ends_at) }, true)
        : interpolate(gettext("ended %(time)s"), { time: when(arena.ends_at) }, true);
    return h("li", { "data-arena": arena.id },
      h("a", { href: arena.link, "data-link": true }, arenaTitle(arena)), " · ", ruleName(arena.rule), " · ",
      interpolate(gettext("%(minutes)s minutes"), { minutes: formatNumber(arena.minutes) }, true), " · ", time, " · ",
      interpolate(ngettext("%(count)s player", "%(count)s players", arena.players), { count: formatNumber(arena.players) }, true),
      arena.seat ? [" · ", h("strong", { "data-part": "seated" }, gettext("you have a seat"))]
        : arena.status !== "finished" ? [" ", h("button", { type: "button", "data-action": "join", onclick: () => join(arena) }, gettext("Join"))] : null);
  }

  async function drawList(status) {
    const arenas = await get(`/arenas?status=${status}`).catch(() => []);
    fill(lists[status], h("h2", {}, titles[status]),
      arenas.length ? h("ul", { class: "rooms arenas" }, arenas.slice(0, 20).map(item)) : h("p", { class: "empty" }, empty[status]));
  }

  async function refresh() {
    clearTimeout(timer);
    await Promise.all(["running", "upcoming", "finished"].map(drawList));
    timer = setTimeout(refresh, POLL_MS);
  }
  await refresh();
  return () => clearTimeout(timer);
}
