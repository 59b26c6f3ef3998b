"""Live play in Chromium: a second page follows every move, spectators, reconnecting."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import Player
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_page_follows_every_move(alice: Player) -> None:
    game_id = int(alice.new_game(CODE)["id"])
    alice.open_game(game_id)
    second = alice.context.new_page()
    second.goto(f"/game/{game_id}")
    expect(second.locator("#app")).to_have_attribute("data-version", "0")
    alice.page.bring_to_front()  # a background tab gets no animation frames to drag with
    alice.drag("5H", "slot-c1")
    alice.wait_for_version(1)
    alice.tap("AS")
    expect(second.locator("#app")).to_have_attribute("data-version", "2")
    expect(second.locator("[data-stat=moves]")).to_have_text("2")
    expect(second.locator("#slot-f0")).to_have_attribute("aria-label", "spades foundation, 1 card")


def test_a_spectator_lists_live_games_and_watches_one(alice: Player, bob: Player) -> None:
    game_id = int(alice.new_game(CODE)["id"])
    bob.page.goto("/watch")
    row = bob.page.locator(f"tr[data-game='{game_id}']")
    expect(row).to_contain_text("alice")
    alice.play(game_id, LINE[:1])
    expect(row.locator("td").nth(3)).to_have_text("1")
    row.get_by_role("link").click()
    bob.wait_for_version(1)
    expect(bob.page.locator(".status")).to_contain_text("Watching alice")
    expect(bob.page.get_by_role("button", name="Undo")).to_have_count(0)
    alice.play(game_id, LINE[1:3])
    bob.wait_for_version(3)
    bob.expect_column("6H", 5)


def test_a_lost_connection_shows_a_banner_reconnects_and_catches_up(
    browser: Browser, server: RunningServer, alice: Player
) -> None:
    game_id = int(alice.new_game(CODE)["id"])
    watcher = Player.sign_up(browser, server, "carol", viewport=DESKTOP)
    try:
        watcher.page.goto(f"/watch/{game_id}")
        watcher.wait_for_version(0)
        watcher.context.set_offline(True)
        banner = watcher.page.locator("#banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Connection lost")
        alice.play(game_id, LINE[:4])
        watcher.context.set_offline(False)
        expect(banner).to_be_hidden()  # the backoff waits at most 10 s between attempts
        watcher.wait_for_version(4)
        expect(watcher.page.locator("[data-stat=moves]")).to_have_text("4")
    finally:
        watcher.close()
