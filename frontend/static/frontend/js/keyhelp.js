// The keyboard controls, behind "?" at the table: the rules page's own list (its #keys section,
// in the page's language), so the keys are written down once.
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

/** Open the keyboard controls in a dialog (once: a second "?" while it is open does nothing). */
export async function showKeys() {
  if (document.querySelector("dialog.keys")) return;
  const body = h("div", { class: "keys-list" }, h("p", {}, gettext("Loading…")));
  const dialog = h("dialog", { class: "dialog keys", "aria-labelledby": "keys-title" },
    h("h2", { id: "keys-title" }, gettext("Keyboard controls")),
    body,
    h("div", { class: "actions" },
      h("a", { href: "/rules#keys", target: "_blank", class: "button secondary" }, gettext("All the rules")),
      h("button", { type: "button", class: "primary", autofocus: true, onclick: () => dialog.close() }, gettext("Close"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  body.replaceChildren(await keysSection());
}

/** The rules page's keyboard section without its heading, or a sentence saying it is missing. */
async function keysSection() {
  try {
    const response = await fetch("/rules/fragment", { credentials: "same-origin" });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const section = page.getElementById("keys");
    if (!response.ok || !section) throw new Error(String(response.status));
    section.querySelector("h2")?.remove();
    // The page's own anchors (#finish) point into the rules page, in a tab of its own.
    for (const link of section.querySelectorAll("a[href^='#']")) {
      link.setAttribute("href", `/rules${link.getAttribute("href")}`);
      link.setAttribute("target", "_blank");
    }
    return h("div", {}, ...section.childNodes);
  } catch {
    return h("p", {}, gettext("The keyboard controls could not be loaded: they are on the rules page."));
  }
}
