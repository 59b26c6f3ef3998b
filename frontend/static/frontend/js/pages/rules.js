// The rules page: one article per language, written on the server (frontend/rules/<lang>.html).
// A full page load brings it inside #app; in-app navigation fetches the same article.
import { h } from "../dom.js";
import { gettext } from "../i18n.js";

/** The element the address's #anchor names, or null (no anchor, an unknown or malformed one). */
function hashTarget() {
  if (!location.hash) return null;
  try {
    return document.getElementById(decodeURIComponent(location.hash.slice(1)));
  } catch {
    return null;
  }
}

export async function mount(root) {
  if (!root.querySelector("article.rules")) {
    const response = await fetch("/rules/fragment", { credentials: "same-origin" });
    root.innerHTML = response.ok ? await response.text() : `<p>${gettext("The rules could not be loaded.")}</p>`;
  }
  document.title = root.querySelector("h1")?.textContent ?? document.title;
  // How often each rule's deals can be won: the odds page, reached from the rules (the header
  // keeps to one row).
  root.querySelector("article.rules")?.append(
    h("p", { class: "see-also" }, h("a", { href: "/odds", "data-link": true }, gettext("The odds of Yukon"))));
  const anchor = hashTarget();
  anchor?.scrollIntoView();
  anchor?.classList.add("target");
  return null;
}
