"""A fair race in three browsers: Bob resigns early with the Resign button, Alice plays on and
wins, Carol leaves and forfeits. The end shows the fair places (the winner, then who resigned
with more progress, then the forfeit) and whole-number rating changes; a rematch starts
without Carol, who left."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from games.races.models import Race, Racer
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import Player
from tests.support.play import winning_line
from tests.support.servers import RunningServer

RATING = re.compile(r"^\u2212?\d+ \([+\u2212±]\d+\)$")


@pytest.fixture
def carol_browser(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    player = Player.sign_up(browser, server, "carol", viewport=DESKTOP)
    yield player
    player.close()


def test_places_ratings_and_a_rematch_without_the_racer_who_left(
    alice_browser: Player, bob_browser: Player, carol_browser: Player, screenshots: Path
) -> None:
    code, line = winning_line()
    page = alice_browser.page
    page.goto("/races")
    expect(page.get_by_label("Deal code (private rooms; empty for a random deal)")).to_be_hidden()
    page.get_by_label("Private room (not listed here)").check()
    expect(page.get_by_label("Deal code (private rooms; empty for a random deal)")).to_be_visible()
    page.locator("[data-action=create-race]").click()  # no code: the server deals (rated)
    expect(page).to_have_url(re.compile(r"/races/[A-Z0-9]{6}$"))
    room = page.url.rsplit("/", 1)[1]
    expect(page.locator("[data-part=rated]")).to_have_text("Rated")
    Race.objects.filter(room=room).update(code=code)  # a deal whose winning line we know

    for player in (bob_browser, carol_browser):
        player.page.goto(f"/races/{room}")
        player.page.locator("[data-action=join]").click()
    for player in (alice_browser, bob_browser, carol_browser):
        expect(player.page.locator("#app .racer")).to_have_count(3)
        player.page.locator("[data-action=ready]").click()
    for player in (alice_browser, bob_browser, carol_browser):
        expect(player.page.locator("#app")).to_have_attribute("data-status", "running")
        expect(player.page.locator("#app .board .card").first).to_be_visible()

    bobs = bob_browser.api("GET", f"/races/{room}")["me"]["game"]
    bob_browser.play(bobs, line[:6])  # four cards home, then he gives up
    expect(bob_browser.page.locator("[data-action=undo]")).to_be_enabled()
    bob_browser.page.locator("[data-action=resign]").click()
    bob_browser.page.locator("dialog [data-choice=resign]").click()
    expect(bob_browser.page.locator("[data-action=resign]")).to_be_disabled()
    expect(alice_browser.page.locator("#app .racer[data-player=bob]")).to_have_attribute(
        "data-state", "resigned"
    )

    carol_browser.page.close()  # Carol leaves; her grace runs out
    expect(alice_browser.page.locator("#app .racer[data-player=carol]")).to_have_attribute(
        "data-state", "disconnected"
    )
    Racer.objects.filter(race__room=room, player__username="carol").update(
        seen_at=timezone.now() - timedelta(minutes=5)
    )
    expect(alice_browser.page.locator("#app .racer[data-player=carol]")).to_have_attribute(
        "data-state", "forfeited"
    )
    alice_browser.page.screenshot(path=screenshots / "race-fair-running.png")

    alices = alice_browser.api("GET", f"/races/{room}")["me"]["game"]
    alice_browser.play(alices, line)
    for player in (alice_browser, bob_browser):
        end = player.page.locator("[data-part=end]")
        expect(end.locator("h2")).to_have_text("alice wins the race!")
        expect(end.locator("tbody tr")).to_have_count(3)
    rows = bob_browser.page.locator("[data-part=end] tbody tr")
    for index, (name, place) in enumerate((("alice", "1"), ("bob", "2"), ("carol", "3"))):
        expect(rows.nth(index)).to_have_attribute("data-player", name)
        expect(rows.nth(index).locator(".place")).to_have_text(place)
    expect(rows.nth(1)).to_contain_text("resigned")
    expect(rows.nth(2)).to_contain_text("forfeited")
    for index in (0, 1):
        expect(rows.nth(index).locator(".rating")).to_have_text(RATING)
    expect(rows.nth(0).locator(".rating")).to_contain_text("(+")
    expect(rows.nth(2).locator(".rating")).to_have_text("—")  # no move: not rated
    bob_browser.page.screenshot(path=screenshots / "race-fair-end.png")

    alice_browser.page.locator("[data-action=rematch]").click()
    expect(alice_browser.page).not_to_have_url(re.compile(f"/races/{room}$"))
    expect(alice_browser.page.locator("[data-part=waiting]")).to_contain_text("bob")
    expect(alice_browser.page.locator("[data-part=waiting]")).not_to_contain_text("carol")
    alice_browser.page.screenshot(path=screenshots / "race-rematch-waiting.png")
    bob_browser.page.locator("[data-action=rematch]").click()
    for player in (alice_browser, bob_browser):
        expect(player.page.locator("#app .racer")).to_have_count(2)
        expect(player.page.locator("#app")).to_have_attribute(
            "data-status", re.compile("countdown|running")
        )
