"""Screen-reader play at the table: every move, refusal, card turned face up, Finish offered and
win is said in a live region (moves and news: the polite `#announcer`; a refused move: the
messages, an assertive one), and the keys are named from the board.

The deal is the known winning line's: at its start AS goes home, 6H (with four cards on it)
goes to column 5 and turns a card of column 7 up, and 5S refuses column 1.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from tests.browser.helpers import Player, started
from tests.support.play import winning_line

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def test_moves_turn_ups_and_refusals_are_announced(alice_browser: Player) -> None:
    page = alice_browser.page
    game_id = started(alice_browser)
    announcer = page.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")

    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    expect(announcer).to_have_text("Ace of spades to its foundation.")

    alice_browser.tap("6H", double=True)
    alice_browser.wait_for_version(2)
    turned = alice_browser.state(game_id)["columns"][6]["face_up"][0]
    rank, suit = (
        turned[:-1],
        {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[turned[-1]],
    )
    rank = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}.get(rank, rank)
    expect(announcer).to_have_text(
        f"6 of hearts with 4 more to column 5. {rank} of {suit} turned face up."
    )

    alice_browser.drag("5S", "slot-c1")
    messages = page.locator("#messages")
    expect(messages).to_have_attribute("aria-live", "assertive")
    expect(messages.locator(".message")).to_have_attribute("data-code", "wrong-colour")
    expect(messages).to_contain_text("5♠ cannot go on 6♠")


def test_the_win_and_the_offer_of_finish_are_announced(alice_browser: Player) -> None:
    page = alice_browser.page
    game_id = started(alice_browser)
    owner = User.objects.get(username="alice")
    version = 0
    for move in LINE[:63]:
        version = services.play_move(owner, game_id, move=move, version=version).game.version
    alice_browser.open_game(game_id)
    announcer = page.locator("#announcer")
    alice_browser.tap(LINE[63].split(">")[0])
    expect(announcer).to_have_text(
        re.compile(r"turned face up\. Every card is face up: press F or the Finish button")
    )
    page.locator(".board").focus()
    page.keyboard.press("f")
    expect(announcer).to_have_text(
        re.compile(rf"^You won in {len(LINE)} moves, score 625, time \d+:\d\d!$")
    )
