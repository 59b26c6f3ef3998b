// Placeholder for the Leaderboards page (filled by the daily and leaderboard work).
import { h } from "../dom.js";

export function mount(root) {
  root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, "Leaderboards"), h("p", {}, "Leaderboards arrive soon: ranked by outcome, moves and time.")));
}
