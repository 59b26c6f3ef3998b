// The race lobby: quick match (with its wait and a cancel), a new room, joining by room code,
// the open rooms, and the race ratings.
import { del, get, post } from "../api.js";
import { field, h } from "../dom.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";
import { startGuest } from "../session.js";
import { ratingText } from "../standings.js";
import { fill, playerLink, ruleName, ruleToggle } from "../tables.js";

const POLL_MS = 2000;

export async function mount(root, ctx) {
  let rule = "C"; // quick match and the ratings shown
  let roomRule = "C"; // a friends' room
  let timer = 0;
  const quick = h("section", { class: "panel", "data-part": "quick" });
  const rooms = h("section", { class: "panel", "data-part": "rooms" });
  const ratings = h("section", { class: "panel", "data-part": "ratings" });
  const code = h("input", { name: "room", autocomplete: "off", spellcheck: "false", maxlength: "8", placeholder: "ABC234" });
  const isPrivate = h("input", { type: "checkbox", name: "private" });
  const minutes = h("input", { type: "number", name: "minutes", min: "1", max: "60", value: "15" });
  const deal = h("input", { name: "code", autocomplete: "off", spellcheck: "false", placeholder: interpolate(gettext("e.g. %(code)s"), { code: "YU1-C-AAAAAAB" }, true) });
  const dealField = field(gettext("Deal code (private rooms; empty for a random deal)"), deal);
  const unratedNote = h("p", { class: "note", "data-part": "unrated-note" }, gettext("A race on a chosen deal is never rated: someone could have solved it beforehand."));
  const showDeal = () => {
    dealField.hidden = !isPrivate.checked;
    unratedNote.hidden = !isPrivate.checked;
  };
  showDeal();
  isPrivate.addEventListener("change", showDeal);
  const roomRules = h("div", { "data-part": "room-rule" });
  const drawRoomRules = () => fill(roomRules, ruleToggle(roomRule, (value) => { roomRule = value; drawRoomRules(); }));
  drawRoomRules();
  const create = h("section", { class: "panel", "data-part": "create" },
    h("h2", {}, gettext("A race with friends")),
    h("p", {}, gettext("Open a room, send its link or room code, and race the same deal at the same moment.")),
    roomRules,
    h("label", { class: "choice" }, isPrivate, " ", gettext("Private room (not listed here)")),
    dealField,
    unratedNote,
    field(gettext("Time limit (minutes)"), minutes),
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", "data-action": "create-race", onclick: createRoom }, gettext("Open a room"))),
    h("form", { class: "join-code", onsubmit: (event) => { event.preventDefault(); if (code.value.trim()) ctx.navigate(`/races/${code.value.trim().toUpperCase()}`); } },
      field(gettext("Room code"), code), h("button", { type: "submit" }, gettext("Join"))),
  );
  // The arenas (scheduled tournaments) start from here: the header has no room for one more.
  const arenas = h("p", { "data-part": "arenas" }, h("a", { href: "/arenas", "data-link": true }, gettext("Arenas")), ": ",
    gettext("Scheduled tournaments: join any time before the end and play deal after deal. A win scores 2, from the third win in a row 4; a game not won scores 1 with 26 cards home."));
  root.replaceChildren(h("h1", {}, gettext("Races")), arenas, quick, create, rooms, ratings);

  async function signedIn() {
    if (!ctx.me) await startGuest(ctx);
  }

  async function createRoom() {
    try {
      await signedIn();
      const body = { rule: roomRule, private: isPrivate.checked, time_limit_minutes: Number(minutes.value) || 15 };
      const typed = deal.value.trim();
      if (isPrivate.checked && typed) {
        body.code = typed;
        delete body.rule;
      }
      const race = await post("/races", body);
      ctx.navigate(`/races/${race.room}`);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  async function drawQuick() {
    const status = ctx.me ? await get("/races/queue").catch(() => null) : null;
    if (status?.race) {
      ctx.navigate(`/races/${status.race}`);
      return;
    }
    if (status?.waiting) {
      fill(quick, h("h2", {}, gettext("Quick match")),
        h("p", { class: "waiting", "data-waiting": "true" }, interpolate(gettext("Waiting for players (%(rule)s): %(seconds)s s, %(count)s waiting."),
          { rule: ruleName(status.rule), seconds: formatNumber(Math.round(status.waited_seconds)), count: formatNumber(status.players_waiting) }, true)),
        h("button", { type: "button", "data-action": "cancel-quick", onclick: async () => { await del("/races/queue"); refresh(); } }, gettext("Cancel")));
      return;
    }
    fill(quick, h("h2", {}, gettext("Quick match")),
      h("p", {}, gettext("Race whoever is waiting: two players, or up to four who arrive within a few seconds.")),
      ruleToggle(rule, (value) => { rule = value; refresh(); }),
      h("p", {}, h("button", { type: "button", class: "primary big", "data-action": "quick-match", onclick: async () => {
        try {
          await signedIn();
          await post("/races/queue", { rule });
          refresh();
        } catch (error) {
          ctx.notify(error.message, "error", error.code);
        }
      } }, gettext("Find a race"))));
  }

  async function drawRooms() {
    const open = await get("/races").catch(() => []);
    fill(rooms, h("h2", {}, gettext("Open rooms")),
      open.length ? h("ul", { class: "rooms" }, open.map((race) => h("li", { "data-room": race.room },
        h("a", { href: `/races/${race.room}`, "data-link": true }, race.room), " · ", ruleName(race.rule), " · ",
        interpolate(gettext("%(count)s of %(max)s players"), { count: formatNumber(race.racers.length), max: formatNumber(race.max_players) }, true), " · ",
        playerLink(race.creator))))
        : h("p", {}, gettext("No open room right now: open one, or find a quick match.")));
  }

  async function drawRatings() {
    const rows = await get(`/races/leaderboard?rule=${rule}`).catch(() => []);
    fill(ratings, h("h2", {}, interpolate(gettext("Race ratings (%(rule)s)"), { rule: ruleName(rule) }, true)),
      rows.length ? h("table", { class: "ranking" },
        h("thead", {}, h("tr", {}, [gettext("Rank"), gettext("Player"), gettext("Rating"), gettext("Races"), gettext("Wins")].map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, rows.slice(0, 20).map((row) => h("tr", {}, h("td", {}, formatNumber(row.rank)), h("td", {}, playerLink(row.player)),
          h("td", {}, ratingText(null, row.rating)), h("td", {}, formatNumber(row.races)), h("td", {}, formatNumber(row.wins))))))
        : h("p", {}, gettext("Nobody is rated yet: ratings come from races between registered players.")));
  }

  async function refresh() {
    clearTimeout(timer);
    await Promise.all([drawQuick(), drawRooms(), drawRatings()]);
    timer = setTimeout(refresh, POLL_MS);
  }
  await refresh();
  return () => clearTimeout(timer);
}
