// A modal question asked of the player (resigning a game, leaving one unfinished).
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

/**
 * Resolves to the chosen value, or null when dismissed (Cancel or Esc).
 * `choices` are {label, value, kind}, the last one the primary answer.
 */
export function ask(title, text, choices) {
  return new Promise((resolve) => {
    let answer = null;
    const dialog = h("dialog", { class: "dialog ask", "aria-labelledby": "ask-title" },
      h("h2", { id: "ask-title" }, title),
      h("p", {}, text),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, gettext("Cancel")),
        choices.map(({ label, value, kind }) =>
          h("button", { type: "button", class: kind, "data-choice": value, onclick: () => { answer = value; dialog.close(); } }, label))),
    );
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
  });
}
