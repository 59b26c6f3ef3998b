// The odds of Yukon: how often each rule's deals can be won, from the solver's sample
// (GET /stats/winnability), with the per-deal CSV to check it. The server counts; the page
// only formats.
import { get } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { RULES, ruleName } from "../variants.js";

const API_PATH = "/api/v1/stats/winnability";

function percentLevel() {
  return formatNumber(0.95, { style: "percent" });
}

function percent(share) {
  return formatNumber(share, { style: "percent", maximumFractionDigits: 1 });
}

function span(interval) {
  return interpolate(gettext("%(low)s to %(high)s"), { low: percent(interval.low), high: percent(interval.high) }, true);
}

function csvLink(rule, text) {
  return h("a", { href: `${API_PATH}?format=csv${rule ? `&rule=${rule}` : ""}`, download: "", "data-csv": rule ?? "all" }, text);
}

/** One rule's card: the published range first, then what it is made of. */
function ruleCard(odds) {
  const name = ruleName(odds.rule);
  if (!odds.deals) {
    return h("section", { class: "stats-card", "data-rule": odds.rule },
      h("h2", {}, name), h("p", { class: "empty" }, gettext("No deal of this rule has been measured yet.")));
  }
  const rows = [
    [gettext("Deals played by the solver"), formatNumber(odds.deals)],
    [gettext("Won"), formatNumber(odds.winnable)],
    [gettext("Lost"), formatNumber(odds.unwinnable)],
    [gettext("Undecided"), interpolate(gettext("%(count)s (%(share)s)"), { count: formatNumber(odds.unknown), share: percent(odds.undecided_share) }, true)],
    [gettext("Won among the decided deals"), odds.decided_rate === null ? "–" : interpolate(gettext("%(rate)s (%(range)s)"), { rate: percent(odds.decided_rate), range: span(odds.decided_rate95) }, true)],
    [gettext("Won deals: easy, medium, hard"), [odds.grades.easy, odds.grades.medium, odds.grades.hard].map((n) => formatNumber(n)).join(" · ")],
  ];
  return h("section", { class: "stats-card", "data-rule": odds.rule },
    h("h2", {}, name),
    // One paragraph, the range in bold above its words (a bold paragraph alone reads as a heading).
    h("p", { class: "odds-figure" }, h("strong", { class: "odds-range", "data-range": "" }, span(odds.range95)), " ",
      h("span", { class: "note" }, interpolate(gettext("of deals can be won (%(level)s confidence)"), { level: percentLevel() }, true))),
    h("dl", {}, rows.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    h("p", { class: "note" }, csvLink(odds.rule, interpolate(gettext("Every %(rule)s deal (CSV)"), { rule: name }, true))));
}

export async function mount(root) {
  const data = await get("/stats/winnability");
  const byRule = Object.fromEntries(data.rules.map((odds) => [odds.rule, odds]));
  const budget = formatNumber(data.node_budget);
  document.title = gettext("The odds of Yukon");
  root.replaceChildren(h("section", { class: "panel odds" },
    h("h1", {}, gettext("The odds of Yukon")),
    h("p", { class: "lead" }, gettext("How often can a deal be won, if you could see every card? Our solver played the first deals of each rule, searching at most the same number of positions for each: a deal is won when it found a winning line, lost when it searched every position, and undecided when it ran out of positions first.")),
    h("p", { class: "note" }, interpolate(ngettext("At most %(budget)s position per deal.", "At most %(budget)s positions per deal.", data.node_budget), { budget }, true)),
    h("div", { class: "stats-cards" }, RULES.map((rule) => ruleCard(byRule[rule]))),
    h("h2", {}, gettext("Why a range")),
    h("p", {}, interpolate(gettext("An undecided deal may be won or lost. The range runs from every undecided deal lost to every one won, each end widened to its %(level)s confidence interval (Wilson), so it holds whatever they hide. The rate among decided deals assumes the undecided ones are won as often as the others; they are the deals the search found hardest, so it is shown beside the range, not instead of it."), { level: percentLevel() }, true)),
    h("h2", {}, gettext("Difficulty")),
    h("p", {}, gettext("A new game can be easy, medium or hard, always a deal proven winnable. An easy deal is won by the solver's first choices and every opening move keeps the win; a hard one needed a long search, or most opening moves lose.")),
    h("h2", {}, gettext("Check it yourself")),
    h("p", {}, gettext("Every deal of the sample is dealt with the public development key, so anyone can deal it again from its game code and solve it. The CSV lists each deal's verdict, the length of the winning line found, and the positions the search needed.")),
    h("p", {}, csvLink(null, gettext("Download every deal (CSV)"))),
  ));
  return null;
}
