"""Learning from a lost game, in Chromium: resign, open the analysis from the end dialog, read
where the win was lost, see the losing move on the board, step through the way to win, and
retry from a position of the game; then the same page on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from games.analysis.models import GameAnalysis
from games.models import Game
from tests.browser.helpers import Player, new_context
from tests.support.analysis import losing_game
from tests.support.servers import RunningServer
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def test_a_lost_game_shows_where_the_win_was_lost_and_retries_from_there(
    alice_browser: Player, browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    game = losing_game(User.objects.get(username="alice"))
    page = alice_browser.page
    alice_browser.open_game(game.pk)
    page.locator("[data-action=resign]").click()
    page.locator("dialog [data-choice=resign]").click()
    ended = page.get_by_role("dialog", name="Game over")
    expect(ended).to_be_visible()
    page.screenshot(path=str(screenshots / "lost-end-dialog.png"))
    ended.locator("[data-action=replay]").click()
    expect(page).to_have_url(re.compile(rf"/game/{game.pk}/replay$"))

    job = GameAnalysis.objects.filter(pk=game.pk)
    turning = wait_until(lambda: job.get().turning or None, "the turning point's search")
    assert turning == "lost", turning
    losing = job.get().losing_version
    assert losing is not None
    sentence = page.locator("[data-turning=lost]")
    expect(sentence).to_contain_text(f"After move {losing},")
    expect(sentence).to_contain_text("this game could no longer be won. Instead,")

    page.get_by_role("button", name="Show the losing move").click()
    replay = page.locator(".replay")
    expect(replay).to_have_attribute("data-step", str(losing - 1))
    expect(page.locator(".replay-step")).to_contain_text("Next:")
    expect(page.locator(".replay-board .card.picked").first).to_be_visible()  # the move's cards
    alice_browser.settle()
    page.screenshot(path=str(screenshots / "analysis-losing-move.png"))

    page.get_by_role("button", name="Show the way to win").click()
    expect(replay).to_have_attribute("data-mode", "line")
    expect(page.locator(".replay-step")).to_contain_text("The last winnable position.")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.locator(".replay-step")).to_contain_text("Winning line, move 1 of")
    page.get_by_role("button", name="Last", exact=True).click()
    expect(page.locator("#slot-f3")).to_have_attribute("aria-label", "clubs foundation, 13 cards")

    page.get_by_role("button", name="Back to the game").click()
    expect(replay).to_have_attribute("data-mode", "game")
    expect(replay).to_have_attribute("data-step", str(losing - 1))
    page.get_by_role("button", name="Retry from here").click()
    expect(page).to_have_url(re.compile(r"/game/\d+$"))
    retry = Game.objects.exclude(pk=game.pk).get(owner__username="alice", status="active")
    assert retry.version == losing - 1 and retry.assisted and not retry.ranked
    expect(page.locator("#app")).to_have_attribute("data-version", str(losing - 1))

    phone = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        small = phone.new_page()
        small.goto(f"/game/{game.pk}/replay")
        expect(small.locator("[data-turning=lost]")).to_be_visible()
        small.get_by_role("button", name="Show the losing move").click()
        Player("phone", phone, small, server).settle()
        small.screenshot(path=str(screenshots / "analysis-phone-390x844.png"), full_page=True)
    finally:
        phone.close()
