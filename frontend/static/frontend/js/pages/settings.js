// Assist settings: each switch saves at once.
import { patch } from "../api.js";
import { h } from "../dom.js";

const SWITCHES = [
  ["double_click", "Double click", "A quick second tap puts the card and what lies on it on the best column."],
  ["placement_help", "Placement help", "While dragging, the columns that accept the cards are highlighted."],
  ["interactive_rules", "Interactive rules", "When a move is refused, say which rule refused it."],
  ["auto_placement", "Auto placement", "On release, the app picks the column itself."],
  ["four_colour_suits", "Four-colour suits", "Spades black, hearts red, diamonds blue, clubs green."],
];

export function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const saved = h("p", { class: "saved", role: "status" });
  const rows = SWITCHES.map(([key, label, help]) => {
    const input = h("input", { type: "checkbox", name: key, checked: ctx.me.settings[key], "aria-describedby": `help-${key}` });
    input.addEventListener("change", async () => {
      try {
        const settings = await patch("/me/settings", { [key]: input.checked });
        ctx.setMe({ ...ctx.me, settings });
        saved.textContent = `Saved: ${label} ${input.checked ? "on" : "off"}.`;
      } catch (error) {
        input.checked = !input.checked;
        saved.textContent = error.message;
      }
    });
    return h("div", { class: "switch" }, h("label", {}, input, " ", label), h("p", { id: `help-${key}`, class: "help" }, help));
  });
  root.replaceChildren(h("section", { class: "panel narrow" }, h("h1", {}, "Settings"), h("h2", {}, "Assists"), rows, saved));
}
