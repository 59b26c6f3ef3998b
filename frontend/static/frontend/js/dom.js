// Tiny DOM helpers: build elements declaratively, format numbers and times.
import { formatDate, formatDuration } from "./i18n.js";

/** h("button", {class: "x", onclick}, "text", child...) */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Elapsed seconds as a clock (kept here for the pages that import it from dom.js). */
export const clock = formatDuration;

/** A date and time in the page's language. */
export function when(iso) {
  return formatDate(iso);
}

/** A labelled form field. */
export function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}
