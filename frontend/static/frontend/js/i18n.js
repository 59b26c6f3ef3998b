/** Translation helpers for the app's strings (identity for now; the catalogue comes next). */

/** The text for `msgid` in the active language. */
export function gettext(msgid) {
  return msgid;
}

/** The singular or plural text for `count` in the active language. */
export function ngettext(singular, plural, count) {
  return count === 1 ? singular : plural;
}

/** Fill `%(name)s` (named) or `%s` (positional) placeholders of `fmt`. */
export function interpolate(fmt, obj, named) {
  if (named) {
    return fmt.replace(/%\(\w+\)s/g, (match) => String(obj[match.slice(2, -2)]));
  }
  let index = 0;
  return fmt.replace(/%s/g, () => String(obj[index++]));
}
