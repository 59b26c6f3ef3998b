"""The app in Hungarian, Portuguese and German: table, refused move, rules page, daily page.

Each language is switched from the header's menu, which stores it for the
signed-in player and reloads the app in it; screenshots per language land in
test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import Player, new_context
from tests.support.servers import RunningServer

CODE = "YU1-C-AAAAAAB"
#: At CODE's deal 7♥ (column 1) cannot go on 8♥ (column 6): Classic wants the other colour.
LANGUAGES = {
    "hu": {
        "rule": "Klasszikus szabály",
        "time": "Idő",
        "refusal": "7♥ nem tehető a(z) 6. oszlop 8♥ lapjára",
        "link": "Olvasd el a szabályt",
        "title": "Így játszd a Yukont",
        "build": "Építés az oszlopokban",
        "nav": "Szabályok",
        "date": r"\d{4}\. [a-zá]+\.? \d{1,2}\.",
        "daily": "A mai napi leosztás",
        "one_player": "Eddig 1 játékos került a rangsorba.",
    },
    "pt": {
        "rule": "Regra Clássica",
        "time": "Tempo",
        "refusal": "7♥ não pode ir para cima de 8♥ na coluna 6",
        "link": "Ver a regra",
        "title": "Como se joga o Yukon",
        "build": "Construir numa coluna",
        "nav": "Regras",
        "date": r"\d{1,2} de [a-z]+\.? de \d{4}",
        "daily": "A distribuição do dia de hoje",
        "one_player": "Até agora, 1 jogador na classificação.",
    },
    "de": {
        "rule": "Regel: Klassisch",
        "time": "Zeit",
        "refusal": "7♥ passt nicht auf 8♥ in Spalte 6",
        "link": "Zur Regel",
        "title": "So spielt man Yukon",
        "build": "Anlegen in den Spalten",
        "nav": "Regeln",
        "date": r"\d{2}\.\d{2}\.\d{4}",
        "daily": "Das heutige Tagesspiel",
        "one_player": "Bisher 1 gewerteter Spieler.",
    },
}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_switching_language_translates_the_table_refusals_and_rules(
    alice_browser: Player, screenshots: Path, language: str
) -> None:
    words = LANGUAGES[language]
    page = alice_browser.page
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.open_game(game_id)
    page.select_option("#language", language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    alice_browser.wait_for_version(0)
    assert alice_browser.api("GET", "/me/settings")["language"] == language

    expect(page.locator("[data-stat=status]")).to_have_text(words["rule"])
    expect(page.locator(".infobar .stat .label").first).to_have_text(words["time"])
    alice_browser.drag("7H", "slot-c6")
    message = page.locator("#messages .message")
    expect(message).to_have_attribute("data-code", "wrong-colour")
    expect(message).to_contain_text(words["refusal"])
    link = message.get_by_role("link", name=words["link"])
    expect(link).to_have_attribute("href", "/rules#build")
    alice_browser.settle()
    page.screenshot(path=screenshots / f"language-{language}-table.png")

    page.goto(link.get_attribute("href") or "")
    expect(page.get_by_role("heading", level=1)).to_have_text(words["title"])
    build = page.locator("section#build")
    expect(build).to_have_class("target")
    expect(build.get_by_role("heading", level=2)).to_have_text(words["build"])
    expect(build).to_be_in_viewport()
    page.screenshot(path=screenshots / f"language-{language}-rules.png")

    page.goto("/games")
    started = page.locator("tbody tr td").nth(7)
    expect(started).to_have_text(re.compile(words["date"]))
    page.get_by_role("link", name=words["nav"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["title"])

    alice_browser.api("POST", "/daily/play")
    page.goto("/daily")
    expect(page.get_by_role("heading", level=1)).to_have_text(words["daily"])
    expect(page.locator(".players")).to_contain_text(words["one_player"])
    expect(page.locator("tr[data-player=alice]")).to_be_visible()
    page.screenshot(path=screenshots / f"language-{language}-daily.png", full_page=True)


def test_a_visitor_gets_the_browsers_language(browser: Browser, server: RunningServer) -> None:
    context = new_context(browser, server, locale="pt-PT")
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", "pt")
        expect(page.get_by_role("button", name="Jogar já")).to_be_visible()
        expect(page.locator("#language")).to_have_value("pt")
        page.select_option("#language", "de")
        expect(page.get_by_role("button", name="Jetzt spielen")).to_be_visible()
    finally:
        context.close()
