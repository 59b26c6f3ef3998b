// Translation and formatting in the page's language. The server picks the language (the
// player's stored choice, the language menu's cookie, or the browser's Accept-Language), writes
// it into <html lang> and loads that language's catalogue (/jsi18n/<lang>/, Django's
// JavaScriptCatalog) before the modules run. Without a catalogue (Node tests) text stays English.

const catalog = globalThis.django;
const LANGUAGE_COOKIE = "django_language";

/** The active language code ("en", "hu", "pt", "de"). */
export const LANGUAGE = globalThis.document?.documentElement.lang || "en";

/** The text for `msgid` in the active language. */
export function gettext(msgid) {
  return catalog ? catalog.gettext(msgid) : msgid;
}

/** The singular or plural text for `count` in the active language (its own plural rules). */
export function ngettext(singular, plural, count) {
  if (catalog) return catalog.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** The text for `msgid` in `context` (one English word, two meanings: "Deal" the verb). */
export function pgettext(context, msgid) {
  return catalog ? catalog.pgettext(context, msgid) : msgid;
}

/** Django-compatible interpolate: named "%(key)s" from an object, or positional "%s". */
export function interpolate(fmt, obj, named = false) {
  if (named) return fmt.replace(/%\(\w+\)s/g, (match) => String(obj[match.slice(2, -2)]));
  let index = 0;
  return fmt.replace(/%s/g, () => String(obj[index++]));
}

/** A number with the language's digit grouping and decimal sign (1 234,5 / 1,234.5). */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(LANGUAGE, options).format(value);
}

/** A date (ISO text or Date) in the language's style; `options` as for Intl.DateTimeFormat. */
export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  if (!value) return "";
  return new Intl.DateTimeFormat(LANGUAGE, options).format(new Date(value));
}

/** Elapsed seconds as a clock (1:05, 1:02:03); digits and colons read the same everywhere. */
export function formatDuration(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** Remember a language choice for the next page loads (the server reads this cookie). */
export function rememberLanguage(code) {
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

/** Go back to the browser's preference (Accept-Language). */
export function forgetLanguage() {
  document.cookie = `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax`;
}
