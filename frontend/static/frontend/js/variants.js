// The rules a deal can be played under, by game-code letter: their names and a short reminder of
// how each builds, for labels only (the server decides every move and sends the legal ones).
import { gettext } from "./i18n.js";

/** Every rule letter the server plays, in the order pages list them. */
export const RULES = ["C", "R", "U", "A"];

export function ruleName(rule) {
  return { R: gettext("Relaxed"), U: gettext("Russian"), A: gettext("Alaska") }[rule] ?? gettext("Classic");
}

/** The dialog's label: the name and how cards build, in a few words. */
export function ruleChoiceLabel(rule) {
  return {
    C: gettext("Classic (red on black)"),
    R: gettext("Relaxed (any colour)"),
    U: gettext("Russian (same suit)"),
    A: gettext("Alaska (same suit, up or down)"),
  }[rule];
}

/** A rule letter from a query string, or Classic for anything else. */
export function ruleFromQuery(params) {
  const rule = (params.get("rule") ?? "").toUpperCase();
  return RULES.includes(rule) ? rule : "C";
}

/** "?rule=U" for a variant, "" for Classic (whose addresses never carry it). */
export function ruleQuery(rule, prefix = "?") {
  return rule && rule !== "C" ? `${prefix}rule=${rule}` : "";
}
