"""The translation catalogues: complete, never fuzzy, placeholders intact, in step with the sources.

Every catalogue (django and djangojs, for hu, pt and de) must translate every
message, carry no fuzzy entry, and keep exactly the msgid's placeholders
(``%(name)s``, ``{name}``, ``%s``): a dropped placeholder loses a card name, an
extra one crashes the formatting. The committed ``.mo`` files must match the
``.po`` files, and extracting the strings from the sources again must give
exactly the catalogues' messages, so a new string cannot slip through untranslated.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from tests.support.servers import require_tool

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ("hu", "pt", "de")
DOMAINS = ("django", "djangojs")
CATALOGUES = [(lang, domain) for lang in LANGUAGES for domain in DOMAINS]
#: Folders whose strings are not shown to players (the same list as `make messages`).
NOT_SCANNED = {"data", "test-artifacts", "tests", "benchmarks", "docs", "node_modules", "locale"}
SOURCE_SUFFIXES = {".py", ".html", ".txt", ".js"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w*\}|%[sdif]")


def _key(entry: polib.POEntry | polib.MOEntry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def catalogue_problems(po: polib.POFile) -> list[str]:
    """Everything wrong with one catalogue, one readable line each (empty when it is fine)."""
    problems = []
    if po.metadata_is_fuzzy:
        problems.append("the header is marked fuzzy (msgfmt would drop Plural-Forms)")
    if "plural=" not in po.metadata.get("Plural-Forms", ""):
        problems.append("the header has no Plural-Forms")
    for entry in po:
        if entry.obsolete:
            problems.append(f"obsolete entry {entry.msgid!r}")
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        if entry.msgid_plural:
            pairs = [
                (entry.msgid if int(n) == 0 else entry.msgid_plural, text)
                for n, text in sorted(entry.msgstr_plural.items())
            ]
        else:
            pairs = [(entry.msgid, entry.msgstr)]
        for source, text in pairs:
            if not text:
                problems.append(f"untranslated: {entry.msgid!r}")
            elif Counter(PLACEHOLDER.findall(source)) != Counter(PLACEHOLDER.findall(text)):
                problems.append(f"placeholders differ: {source!r} -> {text!r}")
    return problems


def test_the_checker_catches_missing_fuzzy_and_broken_placeholders() -> None:
    po = polib.POFile()
    po.metadata = {"Plural-Forms": "nplurals=2; plural=(n != 1);"}
    po.append(polib.POEntry(msgid="Fine %(card)s.", msgstr="Gut %(card)s."))
    po.append(polib.POEntry(msgid="Missing", msgstr=""))
    po.append(polib.POEntry(msgid="Unsure", msgstr="Unsicher", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="%(card)s on %(target)s", msgstr="%(card)s auf %(ziel)s"))
    po.append(polib.POEntry(msgid="Column {n}", msgstr="Spalte"))
    po.append(
        polib.POEntry(
            msgid="%(count)s card",
            msgid_plural="%(count)s cards",
            msgstr_plural={0: "%(count)s Karte", 1: "Karten"},
        )
    )
    assert catalogue_problems(po) == [
        "untranslated: 'Missing'",
        "fuzzy: 'Unsure'",
        "placeholders differ: '%(card)s on %(target)s' -> '%(card)s auf %(ziel)s'",
        "placeholders differ: 'Column {n}' -> 'Spalte'",
        "placeholders differ: '%(count)s cards' -> 'Karten'",
    ]


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_catalogue_is_complete(lang: str, domain: str) -> None:
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"))
    assert len(po) > 0
    assert catalogue_problems(po) == []


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_compiled_catalogue_matches_its_source(lang: str, domain: str) -> None:
    """The .mo files are committed (so `make run` needs no gettext); they must be current."""
    folder = LOCALE / lang / "LC_MESSAGES"
    po = polib.pofile(str(folder / f"{domain}.po"))
    mo = polib.mofile(str(folder / f"{domain}.mo"))
    compiled = {_key(e): (e.msgstr, e.msgstr_plural) for e in mo if e.msgid}
    written = {_key(e): (e.msgstr, e.msgstr_plural) for e in po.translated_entries()}
    assert compiled == written, "run `make messages` to recompile the .mo files"


def _copy_sources(root: Path, target: Path) -> None:
    for path in root.rglob("*"):
        relative = path.relative_to(root)
        if any(part.startswith(".") or part in NOT_SCANNED for part in relative.parts[:-1]):
            continue
        if path.suffix in SOURCE_SUFFIXES and path.is_file():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / relative)


def test_catalogues_hold_exactly_the_strings_of_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_tool("xgettext", "apt-get install -y gettext")
    root = Path(settings.BASE_DIR)
    _copy_sources(root, tmp_path)
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[str(tmp_path / "locale")]):
        for domain in DOMAINS:
            call_command("makemessages", locale=["hu"], domain=domain, verbosity=0)
    for lang, domain in CATALOGUES:
        extracted = polib.pofile(str(tmp_path / "locale/hu/LC_MESSAGES" / f"{domain}.po"))
        committed = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"))
        fresh = {_key(e) for e in extracted}
        known = {_key(e) for e in committed if not e.obsolete}
        assert fresh - known == set(), f"{lang}/{domain}: new strings, run `make messages`"
        assert known - fresh == set(), f"{lang}/{domain}: strings no longer used"
