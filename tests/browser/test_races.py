"""A race in three browsers: Alice opens a room, Bob and a guest (on a phone) join by its link,
all get ready, count down, race (the others watch Alice's progress), Alice wins, everyone sees
the ranking, and a rematch seats them again. One scenario: the suite's heaviest browser test."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

PHONE = {"width": 390, "height": 800}


@pytest.fixture
def guest_browser(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    context = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    player = Player("guest", context, context.new_page(), server)
    yield player
    player.close()


def racer_moves(page: Page, name: str) -> str:
    return f"#app .racer[data-player='{name}'] [data-stat=moves]"


def expect_racers_beside_a_full_board(page: Page) -> None:
    """On a phone: every racer in sight above the board (no list scrolling sideways), and the
    board's seven columns across the width with cards no smaller than the table's."""
    shape = page.evaluate(
        """() => {
            const box = (el) => el.getBoundingClientRect().toJSON();
            const list = document.querySelector('#app .racers');
            return {
                scrolls: list.scrollWidth > list.clientWidth,
                racers: [...list.querySelectorAll('.racer')].map(box),
                columns: [1, 7].map(col => box(document.getElementById(`slot-c${col}`))),
                card: box(document.querySelector('#app .board .card')),
                width: innerWidth,
            };
        }"""
    )
    assert not shape["scrolls"], "the racer list scrolls sideways"
    for racer in shape["racers"]:
        assert racer["left"] >= 0 and racer["right"] <= shape["width"], f"racer cut: {racer}"
        assert racer["bottom"] <= shape["columns"][0]["top"], "a racer under the columns"
    span = shape["columns"][1]["right"] - shape["columns"][0]["left"]
    assert span >= 0.9 * shape["width"], f"the columns span {span} of {shape['width']} px"
    assert shape["card"]["width"] >= 50, f"cards {shape['card']['width']} px wide"


def test_three_players_race_by_link_and_rematch(
    alice_browser: Player, bob_browser: Player, guest_browser: Player, screenshots: Path
) -> None:
    code, line = winning_line()
    page = alice_browser.page
    page.goto("/races")
    page.get_by_label("Private room (not listed here)").check()
    page.get_by_label("Deal code (private rooms; empty for a random deal)").fill(code)
    page.locator("[data-action=create-race]").click()
    expect(page).to_have_url(re.compile(r"/races/[A-Z0-9]{6}$"))
    room = page.url.rsplit("/", 1)[1]
    link = page.locator(".invite-link").input_value()
    assert link.endswith(f"/races/{room}")

    bob_browser.page.goto(f"/races/{room}")
    bob_browser.page.locator("[data-action=join]").click()
    guest_browser.page.goto(f"/races/{room}")
    expect(guest_browser.page.locator("[data-action=join]")).to_have_text("Join as a guest")
    guest_browser.page.locator("[data-action=join]").click()
    for player in (alice_browser, bob_browser, guest_browser):
        expect(player.page.locator("#app .racer")).to_have_count(3)
    page.screenshot(path=screenshots / "race-room.png")

    for player in (alice_browser, bob_browser, guest_browser):
        player.page.locator("[data-action=ready]").click()
    expect(bob_browser.page.locator("[data-part=countdown]")).to_be_visible()
    bob_browser.page.screenshot(path=screenshots / "race-countdown.png")
    for player in (alice_browser, bob_browser, guest_browser):
        expect(player.page.locator("#app")).to_have_attribute("data-status", "running")
        expect(player.page.locator("#app .board .card").first).to_be_visible()

    game = alice_browser.api("GET", f"/races/{room}")["me"]["game"]
    alice_browser.play(game, line[:12])
    for player in (bob_browser, guest_browser):
        expect(player.page.locator(racer_moves(player.page, "alice"))).to_have_text("12 moves")
    bob_browser.page.screenshot(path=screenshots / "race-table-desktop.png")
    guest_browser.page.screenshot(path=screenshots / "race-table-phone.png")
    expect_racers_beside_a_full_board(guest_browser.page)

    alice_browser.play(game, line[12:])
    for player in (alice_browser, bob_browser, guest_browser):
        expect(player.page.locator("[data-part=end] h2")).to_have_text("alice wins the race!")
    expect(bob_browser.page.locator("[data-part=end] tbody tr").first).to_have_attribute(
        "data-player", "alice"
    )
    expect(bob_browser.page.locator(".race-head .facts")).to_contain_text(code)
    bob_browser.page.screenshot(path=screenshots / "race-end.png")

    for player in (bob_browser, alice_browser, guest_browser):
        player.page.locator("[data-action=rematch]").click()
        expect(player.page).not_to_have_url(re.compile(f"/races/{room}$"))
    for player in (alice_browser, bob_browser, guest_browser):
        expect(player.page.locator("#app .racer")).to_have_count(3)
        expect(player.page.locator("#app")).to_have_attribute(
            "data-status", re.compile("countdown|running")
        )
    guest_browser.page.screenshot(path=screenshots / "race-rematch-phone.png")
