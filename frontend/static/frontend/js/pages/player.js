// Placeholder for a player's page (filled by the daily and leaderboard work).
import { h } from "../dom.js";

export function mount(root, ctx, name, player) {
  root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, player), h("p", {}, "Player pages arrive with the leaderboards.")));
}
