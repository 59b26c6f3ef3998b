"""Finish and the keyboard map at the table, in Chromium: the Finish button and the F key once
every card is face up (the moves shown one by one, then the win), "?" for the keys, which the
rules page lists.

The deal is the known winning line's; its 64th move turns the last face-down card up. The moves
before go through the game service, as in the other win tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from tests.browser.helpers import Player, started
from tests.support.play import winning_line

CODE, LINE = winning_line()
ALL_FACE_UP = 64

pytestmark = pytest.mark.django_db(transaction=True)


def all_but_finish(player: Player, moves: int = ALL_FACE_UP) -> int:
    """A game of the line with its first `moves` played, open at the table; its id."""
    game_id = started(player)
    owner = User.objects.get(username=player.name)
    version = 0
    for move in LINE[:moves]:
        version = services.play_move(owner, game_id, move=move, version=version).game.version
    player.open_game(game_id)
    return game_id


def test_finish_is_offered_once_every_card_is_face_up_and_plays_the_rest_home(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    game_id = all_but_finish(alice_browser, ALL_FACE_UP - 1)
    finish = page.locator("[data-action=finish]")
    expect(finish).to_be_hidden()
    alice_browser.tap(LINE[ALL_FACE_UP - 1].split(">")[0])  # turns the last card up
    alice_browser.wait_for_version(ALL_FACE_UP)
    expect(finish).to_be_visible()
    expect(finish).to_have_accessible_name("Finish: play the rest home (F)")
    page.screenshot(path=str(screenshots / "finish-offered-1280x800.png"))
    # Watch the moves go one at a time: the move count shown, after each step drawn.
    page.evaluate(
        """() => {
            window.homeCounts = [];
            const moves = document.querySelector('[data-stat=moves]');
            new MutationObserver(() => {
                if (window.homeCounts.at(-1) !== moves.textContent) {
                    window.homeCounts.push(moves.textContent);
                }
            }).observe(moves, {childList: true, subtree: true, characterData: true});
        }"""
    )
    finish.click()
    expect(page.get_by_role("dialog", name="You won!")).to_be_visible()
    won = alice_browser.state(game_id)
    assert won["status"] == "won" and won["score"] == 625
    counts = page.evaluate("window.homeCounts")
    assert counts == [str(n) for n in range(ALL_FACE_UP + 1, len(LINE) + 1)]  # one move at a time


def test_f_finishes_from_the_keyboard(alice_browser: Player) -> None:
    page = alice_browser.page
    game_id = all_but_finish(alice_browser)
    page.locator(".board").focus()
    page.keyboard.press("f")
    expect(page.get_by_role("dialog", name="You won!")).to_be_visible()
    log = alice_browser.api("GET", f"/games/{game_id}/log")
    assert {entry["intent"] for entry in log[ALL_FACE_UP:]} == {"finish"}


def test_question_mark_shows_the_keys_the_rules_page_lists(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    started(alice_browser)
    board = page.locator(".board")
    expect(board).to_have_attribute("aria-label", re.compile(r"Press \? for every key\.$"))
    board.focus()
    page.keyboard.press("?")
    help_dialog = page.get_by_role("dialog", name="Keyboard controls")
    expect(help_dialog).to_be_visible()
    for key in ("Enter", "Esc", "Ctrl", "?"):
        expect(help_dialog.locator("kbd", has_text=key).first).to_be_visible()
    expect(help_dialog).to_contain_text("once every card is face up")
    page.screenshot(path=str(screenshots / "keys-help-1280x800.png"))
    help_dialog.get_by_role("button", name="Close").click()
    expect(help_dialog).to_have_count(0)
    page.locator("[data-action=keys]").click()
    expect(help_dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(help_dialog).to_have_count(0)

    page.goto("/rules#keys")
    keys = page.locator("section#keys")
    expect(keys.get_by_role("heading", name="Playing with the keyboard")).to_be_visible()
    expect(keys.locator("dt")).to_have_count(10)
    expect(page.locator("section#finish")).to_contain_text("every card is face up")
    expect(page.locator("section#clock")).to_contain_text("parked")
