"""The replay page's analysis (a verdict strip with its legend, where the win was lost, the
winning line from there) and a closed day's solver line, in Chromium against a real server."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import days
from games.analysis.models import GameAnalysis
from games.engine import GameCode
from games.models import DailyDeal, Game
from tests.browser.helpers import Player
from tests.support.analysis import lost_game
from tests.support.play import winning_line
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_replay_shows_the_verdicts_where_the_win_was_lost_and_the_way_to_win(
    alice_browser: Player, screenshots: Path
) -> None:
    code, _ = winning_line()
    yesterday = days.today() - timedelta(days=1)
    DailyDeal.objects.create(
        date=yesterday, number=GameCode.parse(code).number, candidate=0, verdict="winnable"
    )
    game = lost_game(User.objects.get(username="alice"))
    Game.objects.filter(pk=game.pk).update(daily_date=yesterday, ranked=True)
    job = GameAnalysis.objects.filter(pk=game.pk)
    wait_until(lambda: job.get().status == GameAnalysis.Status.DONE, "the task worker's analysis")
    analysis = job.get()
    assert analysis.losing_version is not None

    page = alice_browser.page
    page.goto(f"/daily/{yesterday}/games/{game.pk}/replay")
    cells = page.locator(".verdict-strip .verdict")
    expect(cells).to_have_count(game.log.count() + 1)
    expect(page.locator(".verdict-strip .verdict.unwinnable").last).to_be_visible()
    expect(page.locator(".verdict-legend li")).to_have_count(4)
    expect(page.locator("[data-turning=lost]")).to_contain_text(
        f"After move {analysis.losing_version}"
    )
    page.get_by_role("button", name="Show the losing move").click()
    replay = page.locator(".replay")
    expect(replay).to_have_attribute("data-step", str(analysis.losing_version - 1))
    expect(cells.nth(analysis.losing_version - 1)).to_have_class("verdict winnable current")
    page.get_by_role("button", name="Show the way to win").click()
    expect(replay).to_have_attribute("data-mode", "line")
    page.get_by_role("button", name="Last", exact=True).click()
    expect(page.locator("#slot-f0")).to_have_attribute("aria-label", "spades foundation, 13 cards")
    page.screenshot(path=str(screenshots / "analysis-replay-1280x800.png"), full_page=True)

    page.goto(f"/daily/{yesterday}")
    page.get_by_role("link", name="Replay a solver's winning line").click()
    expect(page.get_by_role("status")).to_contain_text("finding a winning line")
    # The page's first ask queued the solve; the page asks again until the worker has it.
    expect(page.locator(".replay-step")).to_contain_text("Step 0 of")
    page.get_by_role("button", name="Last", exact=True).click()
    expect(page.locator("#slot-f0")).to_have_attribute("aria-label", "spades foundation, 13 cards")
