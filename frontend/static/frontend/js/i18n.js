// Translation entry points for user-visible text. Identity for now: the i18n work (issue 10)
// replaces the internals with a catalog lookup; callers keep using these names.

/** Translate a message (identity until a catalog is loaded). */
export function gettext(msgid) {
  return msgid;
}

/** Plural-aware translation, Django-compatible signature. */
export function ngettext(singular, plural, count) {
  return count === 1 ? singular : plural;
}

/** Django-compatible interpolate: named "%(key)s" from an object, or positional "%s". */
export function interpolate(fmt, obj, named = false) {
  if (named) return fmt.replace(/%\(\w+\)s/g, (match) => String(obj[match.slice(2, -2)]));
  let index = 0;
  return fmt.replace(/%s/g, () => String(obj[index++]));
}
