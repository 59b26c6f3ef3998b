"""My games says what each game is, from the server's `origin`: a new deal, a ranked or a
practice daily, a retry of which game, a race (issue 37: a running race game read "today's
deal" and every daily read the same)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize, expect

from tests.browser.helpers import Player
from tests.support.play import winning_line

CODE, LINE = winning_line()
PHONE: ViewportSize = {"width": 390, "height": 844}

pytestmark = pytest.mark.django_db(transaction=True)


def resign(player: Player, game_id: int) -> None:
    player.api("POST", f"/games/{game_id}/resign", {"version": player.state(game_id)["version"]})


def test_my_games_names_each_kind_of_game(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    alice = alice_browser
    fresh = alice.new_game(CODE)["id"]
    alice.play(fresh, LINE[:2])
    resign(alice, fresh)
    retry = alice.api("POST", f"/games/{fresh}/retry", {"version": 1})["id"]
    ranked = alice.api("POST", "/daily/play")["id"]
    resign(alice, ranked)
    practice = alice.api("POST", "/daily/play")["id"]
    room = alice.api("POST", "/races", {"code": CODE, "private": True})["room"]
    bob_browser.api("POST", f"/races/{room}/join")
    for racer in (alice, bob_browser):
        racer.api("POST", f"/races/{room}/ready")
    page = alice.page
    page.goto(f"/races/{room}")  # the countdown runs out: the race deals
    expect(page.locator("#app")).to_have_attribute("data-status", "running")
    race = alice.api("GET", f"/races/{room}")["me"]["game"]

    page.goto("/games")
    kinds = {
        fresh: "New deal",
        retry: f"Retry of game {fresh}",
        ranked: "Daily deal · ranked",
        practice: "Daily deal · practice",
        race: "Race",
    }
    for game, name in kinds.items():
        expect(page.locator(f"tr[data-game='{game}'] .origin")).to_have_text(name)
    unfinished = page.locator(".unfinished")
    for game in (retry, practice, race):
        expect(unfinished.locator(f"li[data-game='{game}'] .origin")).to_have_text(kinds[game])
    expect(page.locator("#app")).not_to_contain_text("today's deal")
    expect(page.locator(f"tr[data-game='{race}']")).to_contain_text("code hidden until it ends")
    page.screenshot(path=str(screenshots / "my-games-kinds-1280x800.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(screenshots / "my-games-kinds-390x844.png"), full_page=True)

    page.set_viewport_size({"width": 1280, "height": 800})
    page.select_option("#language", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.goto("/games")
    expect(page.locator(f"tr[data-game='{practice}'] .origin")).to_have_text("Tagesspiel · Übung")
    expect(page.locator(f"tr[data-game='{retry}'] .origin")).to_have_text(
        f"Neuer Versuch von Spiel {fresh}"
    )
