"""The analysis board in Chromium: from a lost game's analysis, step to where the win was lost,
open the board there, try the losing move and the move that keeps the win (each judged by the
task worker, in words), undo, follow the winning line to the win; then the page on a phone,
and the board in sight at each screen size the other boards are checked at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from games.analysis.models import BoardPosition, GameAnalysis
from tests.browser.audit import axe_violations
from tests.browser.helpers import Player
from tests.browser.test_fit_pages import SCREENS, expect_board_in_sight
from tests.support.analysis import lost_game
from tests.support.servers import RunningServer
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def test_the_board_judges_the_losing_and_the_keeping_move_and_follows_the_way_to_win(
    alice_browser: Player, browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    # The winning-line deal with seeded moves (tests/support/analysis.py, seed 0): its last
    # winnable position is version 31, and its 32nd move, 5S>6, lost it.
    game = lost_game(User.objects.get(username="alice"))
    job = GameAnalysis.objects.filter(pk=game.pk)
    assert wait_until(lambda: job.get().turning or None, "the turning point's search") == "lost"
    losing = job.get().losing_version
    assert losing is not None
    lost_by = game.log.get(seq=losing).text
    kept_by = job.get().better_move
    assert kept_by and kept_by != lost_by

    page = alice_browser.page
    page.goto(f"/game/{game.pk}/replay")
    page.get_by_role("button", name="Show the losing move").click()
    expect(page.locator(".replay")).to_have_attribute("data-step", str(losing - 1))
    page.get_by_role("button", name="Open board").click()
    expect(page).to_have_url(re.compile(r"/board/[0-9a-f]{24}$"))
    panel = page.locator(".board-panel")
    start = panel.get_attribute("data-key")
    expect(panel).to_have_attribute("data-judging", "done")
    losing_button = page.locator(f".board-move[data-move='{lost_by}']")
    keeping_button = page.locator(f".board-move[data-move='{kept_by}']")
    expect(losing_button).to_have_attribute("data-verdict", "loses-win")
    expect(losing_button).to_contain_text("loses the win")
    expect(keeping_button).to_have_attribute("data-verdict", "keeps-win")
    expect(keeping_button).to_contain_text("keeps the win")
    alice_browser.settle()
    page.screenshot(path=str(screenshots / "board-turning-point-1280x800.png"), full_page=True)

    losing_button.click()  # every move after the losing one loses too
    expect(panel).not_to_have_attribute("data-key", start or "")
    expect(panel).to_have_attribute("data-judging", "done")
    expect(page.locator(".board-move[data-verdict=keeps-win]")).to_have_count(0)
    expect(page.locator(".board-move[data-verdict=loses-win]").first).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(panel).to_have_attribute("data-key", start or "")
    expect(page).to_have_url(re.compile(rf"/board/{start}$"))

    keeping_button.click()
    expect(panel).not_to_have_attribute("data-key", start or "")
    expect(panel).to_have_attribute("data-judging", "done")
    expect(page.locator(".board-move[data-verdict=keeps-win]").first).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(panel).to_have_attribute("data-key", start or "")

    page.get_by_role("button", name="Show the winning line").click()
    line = BoardPosition.objects.get(pk=start).line
    expect(page.locator(".board-line li")).to_have_count(len(line))
    alice_browser.settle()
    page.screenshot(path=str(screenshots / "board-winning-line-1280x800.png"), full_page=True)
    assert axe_violations(page) == []
    follow = page.get_by_role("button", name="Play the line's next move")
    for step in range(len(line)):
        before = panel.get_attribute("data-key")
        follow.click()
        expect(panel).not_to_have_attribute("data-key", before or "")
        expect(page.locator(".board-line li")).to_have_count(len(line) - step - 1 or 1)
    expect(page.locator(".board-status")).to_have_text("Won: every card is home.")
    expect(page.locator("#slot-f0")).to_have_attribute("aria-label", "spades foundation, 13 cards")

    # The link shares the position: bob opens the turning point on a phone, judged already.
    page.goto(f"/board/{start}")
    shared = page.locator("[data-action=share]").get_attribute("href")
    assert shared == f"/board/{start}"
    bob = Player.sign_up(browser, server, "bob", viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        bob.page.goto(shared)
        expect(bob.page.locator(".board-panel")).to_have_attribute("data-judging", "done")
        expect(bob.page.locator(f".board-move[data-move='{lost_by}']")).to_contain_text(
            "loses the win"
        )
        bob.settle()
        bob.page.screenshot(path=str(screenshots / "board-phone-390x844.png"), full_page=True)
        assert bob.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        bob.close()


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_board_fits_the_screen(
    alice_browser: Player, screenshots: Path, width: int, height: int
) -> None:
    game = lost_game(User.objects.get(username="alice"))
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    key = alice_browser.api("POST", f"/games/{game.pk}/board", {"version": 10})["key"]
    page.goto(f"/board/{key}")
    expect(page.locator(".board-panel")).to_have_attribute("data-judging", "done")
    expect_board_in_sight(page, ".analysis-board", screenshots, "board")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
