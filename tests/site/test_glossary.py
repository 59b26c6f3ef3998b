"""The catalogues and rules pages speak the app's own terms, as each language's glossary lists them.

`locale/<lang>/GLOSSARY.md` holds one line per term (English → the language's term, with a
pattern that lets the term inflect) and a "Never" list of known wrong terms. Wherever a
catalogue's English text uses a core term (foundation, column, face-up, face-down, undo, take
back, deal, daily deal, game code, the rule names, same suit, the assists), every translation
of it must match that term's pattern; no "Never" term may appear in a catalogue or on the
rules page. The English side of the core terms is defined here, once for all languages.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
RULES_PAGES = ROOT / "frontend/templates/frontend/rules"
LANGUAGES = ("hu", "pt", "de")
DOMAINS = ("django", "djangojs")

#: English core term (as the glossaries spell it) -> where English text uses it.
CORE = {
    "foundation": r"\bfoundations?\b",
    "column": r"\bcolumns?\b",
    "face-up": r"\bface[- ]up\b",
    "face-down": r"\bface[- ]down\b",
    "undo": r"\bundo(es|ne|s)?\b",
    "take back": r"\btake-backs?\b|\b(take|takes|taken|taking) back\b",
    "deal": r"(?<!daily )(?<!today's )\bdeals?\b(?!'s code| code)",
    "daily deal": r"\b(daily|today's) deal\b",
    "game code": r"\b(game|deal)('s)? code\b",
    "Classic": r"\bClassic\b",
    "Relaxed": r"\bRelaxed\b",
    "Russian": r"\bRussian\b",
    "Alaska": r"\bAlaska\b",
    "same suit": r"\bsame suit\b",
    "Assists": r"\bassists\b",
    "Double click": r"\bdouble[- ]click",
    "Placement help": r"\bplacement help\b",
    "Interactive rules": r"\binteractive rules\b",
    "Auto placement": r"\bauto placement\b",
}
TERM_LINE = re.compile(r"^- (?P<english>.+?) → (?P<term>.+?) · `(?P<pattern>[^`]+)`$")
NEVER_LINE = re.compile(r"^- (?P<term>.+?) · `(?P<pattern>[^`]+)`$")
#: A term's name without its note: "foundation (a pile)" -> "foundation".
NOTE = re.compile(r"\s*\(.*\)$")
Patterns = dict[str, re.Pattern[str]]


def parse_glossary(text: str) -> tuple[Patterns, Patterns]:
    """The glossary's terms (English -> pattern) and its "Never" list (wrong term -> pattern)."""
    terms: Patterns = {}
    never: Patterns = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("- ") and section == "Terms":
            found = TERM_LINE.match(line)
            assert found, f"not a term line: {line!r}"
            terms[NOTE.sub("", found["english"])] = re.compile(found["pattern"], re.IGNORECASE)
        elif line.startswith("- ") and section == "Never":
            found = NEVER_LINE.match(line)
            assert found, f"not a 'Never' line: {line!r}"
            never[NOTE.sub("", found["term"])] = re.compile(found["pattern"], re.IGNORECASE)
    return terms, never


def translations(po: polib.POFile) -> list[tuple[str, str]]:
    """(English, translation) for every form of every message (singular and plural)."""
    pairs = []
    for entry in po:
        if entry.msgid_plural:
            for n, text in sorted(entry.msgstr_plural.items()):
                pairs.append((entry.msgid if int(n) == 0 else entry.msgid_plural, text))
        else:
            pairs.append((entry.msgid, entry.msgstr))
    return pairs


def term_problems(pairs: list[tuple[str, str]], terms: Patterns, never: Patterns) -> list[str]:
    """Every core term a translation misses and every wrong term it uses, one line each."""
    problems = []
    for english, text in pairs:
        for term, where in CORE.items():
            if re.search(where, english, re.IGNORECASE) and not terms[term].search(text):
                problems.append(f"{term!r} missing: {english!r} -> {text!r}")
        used = [wrong for wrong, pattern in never.items() if pattern.search(text)]
        problems += [f"{wrong!r} used: {english!r} -> {text!r}" for wrong in used]
    return problems


def glossary(lang: str) -> tuple[Patterns, Patterns]:
    return parse_glossary((LOCALE / lang / "GLOSSARY.md").read_text(encoding="utf-8"))


def test_the_checker_catches_a_missing_term_and_a_wrong_one() -> None:
    terms, never = parse_glossary(
        "## Terms\n"
        + "".join(f"- {term} → x · `{term}-x`\n" for term in CORE if term != "foundation")
        + "- foundation (a pile) → Ablageziel · `Ablageziel`\n"
        "## Never\n- Zielstapel (no) · `Zielstapel`\n"
    )
    pairs = [
        ("The hearts foundation is complete.", "Das Herz-Ablageziel ist vollständig."),
        ("%(suit)s foundations", "%(suit)s-Zielstapel"),
        ("Ready?", "Bereit für den Zielstapel?"),
    ]
    assert term_problems(pairs, terms, never) == [
        "'foundation' missing: '%(suit)s foundations' -> '%(suit)s-Zielstapel'",
        "'Zielstapel' used: '%(suit)s foundations' -> '%(suit)s-Zielstapel'",
        "'Zielstapel' used: 'Ready?' -> 'Bereit für den Zielstapel?'",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_names_every_core_term(lang: str) -> None:
    terms, never = glossary(lang)
    assert set(CORE) - set(terms) == set()
    assert never, "the glossary lists the known wrong terms under '## Never'"


CATALOGUES = [(lang, domain) for lang in LANGUAGES for domain in DOMAINS]


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_the_catalogue_uses_the_glossary_terms(lang: str, domain: str) -> None:
    terms, never = glossary(lang)
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"))
    assert term_problems(translations(po), terms, never) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_uses_no_wrong_term(lang: str) -> None:
    _, never = glossary(lang)
    page = (RULES_PAGES / f"{lang}.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", page)
    assert [wrong for wrong, pattern in never.items() if pattern.search(text)] == []
