"""Pages in the player's language: the shell, its catalogue and the rules page with its anchors."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import PlayerSettings
from games.engine import CODES

LANGUAGES = ("en", "hu", "pt", "de")
#: Rule families a player can meet; "state" only concerns stored data, never a player.
FAMILIES = sorted({kind.rule for kind in CODES.values()} - {"state"})
TITLES = {
    "en": "How to play Yukon",
    "hu": "Így játszd a Yukont",
    "pt": "Como se joga o Yukon",
    "de": "So spielt man Yukon",
}


def shell_language(html: str) -> str:
    found = re.search(r'<html lang="([\w-]+)"[ >]', html)
    assert found, html[:200]
    return found.group(1)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shell_follows_accept_language(client: Client, language: str) -> None:
    html = client.get("/", headers={"accept-language": f"{language};q=0.9"}).text
    assert shell_language(html) == language
    assert f'<script src="/jsi18n/{language}/"></script>' in html
    assert f'<option value="{language}" lang="{language}" selected>' in html


@pytest.mark.django_db
def test_the_language_cookie_beats_the_browser(client: Client) -> None:
    client.cookies["django_language"] = "pt"
    assert shell_language(client.get("/", headers={"accept-language": "de"}).text) == "pt"


@pytest.mark.django_db
def test_a_signed_in_players_choice_beats_both(client: Client, alice: User) -> None:
    PlayerSettings.objects.update_or_create(user=alice, defaults={"language": "hu"})
    client.force_login(alice)
    client.cookies["django_language"] = "pt"
    html = client.get("/", headers={"accept-language": "de"}).text
    assert shell_language(html) == "hu"
    assert "<title>Yukon Solitaire</title>" in html


@pytest.mark.django_db
def test_the_catalogue_speaks_its_language(client: Client) -> None:
    script = client.get("/jsi18n/pt/").text
    assert '"Relaxed": "Flex\\u00edvel"' in script
    assert client.get("/jsi18n/xx/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_has_an_anchor_for_every_rule_family(client: Client, language: str) -> None:
    html = client.get("/rules", headers={"accept-language": language}).text
    assert shell_language(html) == language
    assert f"<h1>{TITLES[language]}</h1>" in html
    anchors = set(re.findall(r'<section id="([\w-]+)">', html))
    assert set(FAMILIES) <= anchors, set(FAMILIES) - anchors
    assert "{{" not in html


@pytest.mark.django_db
def test_the_rules_fragment_and_numbers_per_language(client: Client) -> None:
    german = client.get("/rules/fragment", headers={"accept-language": "de"}).text
    assert german.startswith('<article class="rules panel" lang="de">')
    assert "8.031.810.176 Austeilungen" in german
    english = client.get("/rules/fragment", headers={"accept-language": "en"}).text
    assert "8,031,810,176 deals" in english
