// Difficulty grades (the server grades deals from the solver's sample: docs/solver.md
// "Difficulty grades"): the new game dialog's choice, and the daily deal's grade.
import { get } from "./api.js";
import { field, h } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
import { ruleQuery } from "./variants.js";

export const GRADES = ["easy", "medium", "hard"];
/** How often the daily page asks again for a grade a task worker is still working out. */
const GRADE_POLL_MS = 3000;

export function gradeName(grade) {
  return { easy: gettext("Easy"), medium: gettext("Medium"), hard: gettext("Hard") }[grade] ?? grade;
}

/** The new game dialog's difficulty: any deal (the default), or a proven-winnable graded one. */
export function difficultyField() {
  const select = h("select", { name: "difficulty" },
    h("option", { value: "" }, gettext("Any deal")),
    GRADES.map((grade) => h("option", { value: grade },
      interpolate(gettext("%(grade)s (proven winnable)"), { grade: gradeName(grade) }, true))));
  return field(gettext("Difficulty"), select);
}

/** The chosen difficulty of a new game dialog, as the body's field ({} for any deal). */
export function difficultyOf(dialog) {
  const grade = dialog.querySelector("select[name=difficulty]")?.value;
  return grade ? { difficulty: grade } : {};
}

/** Today's deal's grade; while a worker works it out, asked again until known or gone. */
export function dayGrade(today, rule) {
  const line = h("p", { class: "day-grade" });
  const show = (grade) => {
    line.dataset.grade = grade ?? "";
    line.textContent = grade
      ? interpolate(gettext("Difficulty: %(grade)s"), { grade: gradeName(grade) }, true)
      : gettext("Difficulty: being worked out…");
  };
  show(today.grade);
  if (today.grade) return line;
  const timer = setInterval(async () => {
    if (!line.isConnected) return clearInterval(timer);
    const again = await get(`/daily${ruleQuery(rule)}`).catch(() => null);
    if (again?.grade && line.isConnected) {
      clearInterval(timer);
      show(again.grade);
    }
  }, GRADE_POLL_MS);
  return line;
}
