// Assist settings, the look (card back, table colour), sounds and the language: each choice
// saves at once and shows at once.
import { patch } from "../api.js";
import { h } from "../dom.js";
import { forgetLanguage, gettext, interpolate, rememberLanguage } from "../i18n.js";
import { applyLook } from "../session.js";

const SWITCHES = [
  ["double_click", gettext("Double click"), gettext("A quick second tap puts the card and what lies on it on the best column.")],
  ["placement_help", gettext("Placement help"), gettext("While dragging, the columns that accept the cards are highlighted.")],
  ["interactive_rules", gettext("Interactive rules"), gettext("When a move is refused, say which rule refused it.")],
  ["auto_placement", gettext("Auto placement"), gettext("On release, the app picks the column itself.")],
  ["four_colour_suits", gettext("Four-colour suits"), gettext("Spades black, hearts red, diamonds blue, clubs green.")],
];

const CARD_BACKS = [["blue", gettext("Blue lattice")], ["red", gettext("Red diamonds")],
  ["green", gettext("Green checks")], ["night", gettext("Night and gold")]];
const TABLE_COLOURS = [["green", gettext("Green felt")], ["blue", gettext("Blue felt")],
  ["wine", gettext("Wine-red felt")], ["slate", gettext("Slate grey")]];

/** Save one setting; the server's answer becomes the player's settings. */
async function save(ctx, changes) {
  const settings = await patch("/me/settings", changes);
  ctx.setMe({ ...ctx.me, settings });
  return settings;
}

/**
 * A choice among looks, each shown as its swatch (the swatch wears `data-<attribute>` = the
 * value, so the table's own CSS paints it).
 */
function lookChoice(ctx, saved, { key, legend, choices, attribute, swatch }) {
  const inputs = choices.map(([value, label]) => {
    const input = h("input", { type: "radio", name: key, value, checked: ctx.me.settings[key] === value });
    input.addEventListener("change", async () => {
      try {
        await save(ctx, { [key]: value });
        saved.textContent = interpolate(gettext("Saved: %(setting)s."), { setting: label }, true);
      } catch (error) {
        saved.textContent = error.message;
      }
    });
    return h("label", {}, input, h("span", { class: `swatch ${swatch}`, [`data-${attribute}`]: value }), label);
  });
  return h("fieldset", { class: "looks", "data-setting": key }, h("legend", {}, legend), inputs);
}

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

/** An on/off setting with its help line; `then(on)` runs after it is saved. */
function toggle(ctx, saved, [key, label, help], then = () => null) {
  const input = h("input", { type: "checkbox", name: key, checked: ctx.me.settings[key], "aria-describedby": `help-${key}` });
  input.addEventListener("change", async () => {
    try {
      await save(ctx, { [key]: input.checked });
      then(input.checked);
      const fmt = input.checked ? gettext("Saved: %(setting)s on.") : gettext("Saved: %(setting)s off.");
      saved.textContent = interpolate(fmt, { setting: label }, true);
    } catch (error) {
      input.checked = !input.checked;
      saved.textContent = error.message;
    }
  });
  return h("div", { class: "switch" }, h("label", {}, input, " ", label), h("p", { id: `help-${key}`, class: "help" }, help));
}

export function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  applyLook(ctx.me.settings);
  const saved = h("p", { class: "saved", role: "status" });
  const rows = SWITCHES.map((row) => toggle(ctx, saved, row));
  const sounds = toggle(ctx, saved,
    ["sounds", gettext("Sounds"), gettext("A soft click for a move, a low tone for a refused move, a tune for a win. Made in the browser, nothing to download.")],
    (on) => on && import("../sounds.js").then((module) => module.play("move")));
  root.replaceChildren(h("section", { class: "panel narrow" }, h("h1", {}, gettext("Settings")), h("h2", {}, gettext("Assists")), rows,
    h("h2", {}, gettext("Table and cards")),
    lookChoice(ctx, saved, { key: "card_back", legend: gettext("Card back"), choices: CARD_BACKS, attribute: "card-back", swatch: "back" }),
    lookChoice(ctx, saved, { key: "table_colour", legend: gettext("Table colour"), choices: TABLE_COLOURS, attribute: "table", swatch: "felt" }),
    h("h2", {}, gettext("Sounds")), sounds, saved,
    h("h2", {}, gettext("Language")), languageField(ctx),
    h("p", {}, h("a", { href: "/account", "data-link": true }, gettext("E-mail address, password, your data, deleting the account")))));
}
