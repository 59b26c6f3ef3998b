// Live games: the lobby feed, one row per game in play, each a link to watch it.
import { clock, h } from "../dom.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";
import { PUSH } from "../pushes.js";
import { connectionBanner, LiveSocket } from "../socket.js";

export function mount(root, ctx) {
  const games = new Map();
  // Nobody is playing only once the server said so: a refused or lost socket says nothing.
  let heard = false;
  const body = h("tbody");
  const empty = h("p", { class: "empty" }, gettext("Nobody is playing right now."));
  const draw = () => {
    const rows = [...games.values()].sort((a, b) => b.id - a.id).map((game) =>
      h("tr", { "data-game": game.id },
        h("td", {}, h("a", { href: `/watch/${game.id}`, "data-link": true, "aria-label": interpolate(gettext("Watch %(name)s play %(code)s"), { name: game.owner, code: game.code }, true) }, game.owner)),
        h("td", {}, game.code), h("td", {}, `${game.cards_on_foundations}/52`), h("td", {}, formatNumber(game.move_count)),
        h("td", {}, formatNumber(game.score)), h("td", {}, clock(game.elapsed_seconds))));
    body.replaceChildren(...rows);
    empty.hidden = rows.length > 0 || !heard;
  };
  const upsert = (game) => {
    const known = games.get(game.id);
    if (!known || known.version <= game.version) games.set(game.id, game);
  };
  const socket = new LiveSocket("/ws/v1/lobby/", {
    onStatus: (what, detail) => ctx.banner(connectionBanner(what, detail)),
    onMessage(message) {
      if (message.t === PUSH.LOBBY) {
        heard = true;
        games.clear();
        message.d.games.forEach(upsert);
      } else if (message.t === PUSH.GAME_STARTED || message.t === PUSH.GAME_PROGRESS) upsert(message.d);
      else if (message.t === PUSH.GAME_FINISHED || message.t === PUSH.GAME_REMOVED) games.delete(message.d.id);
      draw();
    },
  });
  root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, gettext("Live games")),
    h("table", {}, h("thead", {}, h("tr", {}, [gettext("Player"), gettext("Deal"), gettext("Home"), gettext("Moves"), gettext("Score"), gettext("Time")].map((t) => h("th", { scope: "col" }, t)))), body), empty));
  draw();
  return () => socket.close();
}
