"""The solver's assists at the table in Chromium: Hint and "Can I still win?" ask first (the
game becomes assisted), then show the server's answer; a hint is drawn on the table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.helpers import Player, started
from tests.support.play import winning_line

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hint_asks_first_then_shows_the_servers_move_on_the_table(
    alice_browser: Player, screenshots: Path
) -> None:
    game_id = started(alice_browser)
    page = alice_browser.page
    page.get_by_role("button", name="Hint").click()
    confirm = page.get_by_role("dialog", name="Ask the solver?")
    expect(confirm).to_contain_text("assisted")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_have_count(0)
    assert not Game.objects.get(pk=game_id).assisted

    page.get_by_role("button", name="Hint").click()
    with page.expect_response(f"**/api/v1/games/{game_id}/hint") as answered:
        confirm.get_by_role("button", name="Ask the solver").click()
    # Nothing kept yet: the solve is queued (202) and the page waits for its answer.
    assert answered.value.status == 202
    assert answered.value.json()["status"] == "pending"
    assert Game.objects.get(pk=game_id).assisted
    message = page.locator("#messages.docked .message")
    expect(message).to_have_attribute("data-code", "hint-winnable")
    hint = alice_browser.api("POST", f"/games/{game_id}/hint")  # now answered from the kept line
    assert hint["status"] == "winnable" and hint["move"]
    card, to = hint["move"].split(">")
    expect(message).to_contain_text("Hint: move")
    # The hinted card (and what lies on it) and the target are marked on the table.
    expect(alice_browser.card(card)).to_have_class(re.compile(r"\bhinted\b"))
    target = page.locator("#mark-f" if to == "F" else f"#mark-c{to}")
    expect(target).to_have_class("drop-mark hint")
    expect(page.locator(".card.hinted").first).to_be_visible()
    page.screenshot(path=str(screenshots / "hint-1280x800.png"))

    # Already assisted: no second question. A move clears the hint from the table.
    with page.expect_response(f"**/api/v1/games/{game_id}/winnability"):
        page.get_by_role("button", name="Can I still win?").click()
    expect(message).to_have_attribute("data-code", "winnability-winnable")
    expect(message).to_contain_text("can still be won")
    expect(page.get_by_role("dialog")).to_have_count(0)
    alice_browser.play(game_id, [hint["move"]])
    alice_browser.wait_for_version(1)
    expect(page.locator(".card.hinted")).to_have_count(0)
    expect(page.locator(".drop-mark")).to_have_count(0)


def test_winnability_on_an_already_assisted_game_asks_nothing(alice_browser: Player) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    Game.objects.filter(pk=game_id).update(assisted=True)
    alice_browser.open_game(game_id)
    alice_browser.page.get_by_role("button", name="Can I still win?").click()
    message = alice_browser.page.locator("#messages.docked .message")
    expect(message).to_have_attribute("data-code", "winnability-winnable")
    expect(message).to_contain_text("Yes: this game can still be won.")


def test_the_last_hints_message_leaves_with_the_table_it_spoke_of(alice_browser: Player) -> None:
    """Issue 32: a hint's message stayed through the win's cascade; it goes as the table changes."""
    page = alice_browser.page
    game_id = int(alice_browser.new_game(CODE)["id"])
    owner = User.objects.get(username="alice")
    version = 0
    for move in LINE[:-1]:
        version = services.play_move(owner, game_id, move=move, version=version).game.version
    Game.objects.filter(pk=game_id).update(assisted=True)  # no question before the hint
    alice_browser.open_game(game_id)
    page.get_by_role("button", name="Hint").click()
    message = page.locator("#messages .message")
    expect(message).to_have_attribute("data-code", "hint-winnable")
    card = LINE[-1].split(">")[0]
    alice_browser.tap(card)  # the hinted, winning move
    expect(page.locator(".cascade")).to_have_count(1)
    expect(message).to_have_count(0)
