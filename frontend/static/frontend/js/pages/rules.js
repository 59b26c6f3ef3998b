// The rules page: one article per language, written on the server (frontend/rules/<lang>.html).
// A full page load brings it inside #app; in-app navigation fetches the same article.
import { gettext } from "../i18n.js";

export async function mount(root) {
  if (!root.querySelector("article.rules")) {
    const response = await fetch("/rules/fragment", { credentials: "same-origin" });
    root.innerHTML = response.ok ? await response.text() : `<p>${gettext("The rules could not be loaded.")}</p>`;
  }
  document.title = root.querySelector("h1")?.textContent ?? document.title;
  const anchor = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  anchor?.scrollIntoView();
  anchor?.classList.add("target");
  return null;
}
