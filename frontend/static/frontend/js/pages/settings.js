// Assist settings and the language: each switch saves at once.
import { patch } from "../api.js";
import { h } from "../dom.js";
import { forgetLanguage, gettext, interpolate, rememberLanguage } from "../i18n.js";

const SWITCHES = [
  ["double_click", gettext("Double click"), gettext("A quick second tap puts the card and what lies on it on the best column.")],
  ["placement_help", gettext("Placement help"), gettext("While dragging, the columns that accept the cards are highlighted.")],
  ["interactive_rules", gettext("Interactive rules"), gettext("When a move is refused, say which rule refused it.")],
  ["auto_placement", gettext("Auto placement"), gettext("On release, the app picks the column itself.")],
  ["four_colour_suits", gettext("Four-colour suits"), gettext("Spades black, hearts red, diamonds blue, clubs green.")],
];

/** The stored language: "" follows the browser; the header menu lists the same languages. */
function languageField(ctx) {
  const menu = document.getElementById("language");
  const choices = [["", gettext("As my browser prefers")], ...[...(menu?.options ?? [])].map((o) => [o.value, o.textContent])];
  const select = h("select", { name: "language", "aria-describedby": "help-language" },
    choices.map(([value, label]) => h("option", { value, selected: value === (ctx.me.settings.language ?? "") }, label)));
  select.addEventListener("change", async () => {
    await patch("/me/settings", { language: select.value });
    if (select.value) rememberLanguage(select.value);
    else forgetLanguage();
    location.reload();
  });
  return h("div", { class: "switch" }, h("label", {}, gettext("Language"), " ", select),
    h("p", { id: "help-language", class: "help" }, gettext("Stored with your account: every device you sign in on uses it.")));
}

export function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const saved = h("p", { class: "saved", role: "status" });
  const rows = SWITCHES.map(([key, label, help]) => {
    const input = h("input", { type: "checkbox", name: key, checked: ctx.me.settings[key], "aria-describedby": `help-${key}` });
    input.addEventListener("change", async () => {
      try {
        const settings = await patch("/me/settings", { [key]: input.checked });
        ctx.setMe({ ...ctx.me, settings });
        const fmt = input.checked ? gettext("Saved: %(setting)s on.") : gettext("Saved: %(setting)s off.");
        saved.textContent = interpolate(fmt, { setting: label }, true);
      } catch (error) {
        input.checked = !input.checked;
        saved.textContent = error.message;
      }
    });
    return h("div", { class: "switch" }, h("label", {}, input, " ", label), h("p", { id: `help-${key}`, class: "help" }, help));
  });
  root.replaceChildren(h("section", { class: "panel narrow" }, h("h1", {}, gettext("Settings")), h("h2", {}, gettext("Assists")), rows, saved,
    h("h2", {}, gettext("Language")), languageField(ctx)));
}
