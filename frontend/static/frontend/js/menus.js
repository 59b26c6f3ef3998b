// Menus that open under their button: the header's on a narrow screen, the account's, and the
// table's "More" on a phone. Each is a disclosure (a button with aria-expanded showing the
// box beside it); Esc, a click elsewhere, choosing an item or a new page close it.
import { gettext } from "./i18n.js";
import { h } from "./dom.js";

/** The open menus: {holder, toggle, close}. */
const opened = new Set();

/**
 * Make `toggle` open and close its menu: the class `open` on `holder` (which holds the toggle
 * and the items) shows the items, as the CSS says. Returns close().
 */
export function disclosure(holder, toggle) {
  const menu = { holder, toggle, close: () => set(false) };
  function set(open) {
    holder.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) opened.add(menu);
    else opened.delete(menu);
  }
  toggle.setAttribute("aria-expanded", "false");
  toggle.addEventListener("click", () => set(!holder.classList.contains("open")));
  holder.addEventListener("click", (event) => {
    const item = event.target.closest("a, button");
    if (item && item !== toggle && holder.classList.contains("open")) set(false);
  });
  return menu.close;
}

export function closeMenus() {
  for (const menu of [...opened]) menu.close();
}

let counter = 0;

/**
 * Controls that stand in a row where there is room and fold under a "More" button where there
 * is not (app.css decides: on a phone). Items may be null.
 */
export function moreMenu(items) {
  const id = `more-${++counter}`;
  const toggle = h("button", { type: "button", class: "more-toggle", "aria-controls": id }, gettext("More"));
  const holder = h("div", { class: "more" }, toggle, h("div", { class: "more-items", id }, items));
  disclosure(holder, toggle);
  return holder;
}

document.addEventListener("click", (event) => {
  for (const menu of [...opened]) if (!menu.holder.contains(event.target)) menu.close();
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !opened.size) return;
  const focused = [...opened].find((menu) => menu.holder.contains(document.activeElement));
  closeMenus();
  focused?.toggle.focus();
});
