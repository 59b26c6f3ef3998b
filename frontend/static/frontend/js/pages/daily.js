// Placeholder for the Daily deal page (filled by the daily and leaderboard work).
import { h } from "../dom.js";

export function mount(root) {
  root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, "Daily deal"), h("p", {}, "The daily shared deal arrives soon: everyone plays the same cards, one result each.")));
}
