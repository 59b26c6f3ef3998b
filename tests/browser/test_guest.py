"""A visitor plays at once as a guest (a random deal, the daily deal), then signs up and still has
the game (real Chromium)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from accounts.models import PlayerSettings
from games import daily, days
from games.engine import CLASSIC
from games.models import Game
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import PASSWORD, Player
from tests.support.play import column_move, has_column_move, opening_where
from tests.support.servers import RunningServer


@pytest.fixture
def visitor(browser: Browser, server: RunningServer, transactional_db: None) -> Iterator[Player]:
    """Somebody who has never signed up, in a fresh browser context."""
    context = browser.new_context(base_url=server.url, viewport=DESKTOP)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    player = Player("visitor", context, context.new_page(), server)
    yield player
    player.close()


def test_play_now_deals_a_guest_game_that_signing_up_keeps(
    visitor: Player, screenshots: Path
) -> None:
    page = visitor.page
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.screenshot(path=screenshots / "guest-landing.png")
    page.get_by_role("button", name="Play now").click()

    expect(page).to_have_url(re.compile(r"/game/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    visitor.wait_for_version(0)
    expect(page.locator("#nav .guest-badge")).to_have_text("Guest")
    guest_browser = Game.objects.select_related("owner").get(pk=game_id).owner
    assert PlayerSettings.objects.get(user=guest_browser).is_guest

    # The random deal may offer no move onto a column: a deal that does, by its code, in
    # place of the untouched one.
    page.get_by_role("button", name="New game").click()
    dialog = page.get_by_role("dialog", name="New game")
    dialog.get_by_label("Deal code").fill(opening_where(CLASSIC, has_column_move))
    dialog.get_by_role("button", name="Deal").click()
    expect(page).not_to_have_url(re.compile(rf"/game/{game_id}$"))
    assert not Game.objects.filter(pk=game_id).exists()
    game_id = int(page.url.rsplit("/", 1)[1])
    visitor.wait_for_version(0)
    card, column = column_move(visitor.state(game_id)["legal_moves"])
    visitor.drag(card, f"slot-c{column}")
    visitor.wait_for_version(1)
    visitor.expect_column(card, column)
    page.screenshot(path=screenshots / "guest-table.png")

    page.locator("#nav [data-action=keep-games]").click()
    expect(page).to_have_url(re.compile(r"/signup$"))
    page.get_by_label("Username").fill("gina")
    page.get_by_label("Password").fill(PASSWORD)
    page.screenshot(path=screenshots / "guest-signup.png")
    page.get_by_role("button", name="Create my account").click()

    # Home sends a player with an unfinished game straight back to it.
    expect(page).to_have_url(re.compile(rf"/game/{game_id}$"))
    visitor.wait_for_version(1)
    expect(page.locator("#nav")).to_contain_text("Log out (gina)")
    expect(page.locator("#nav .guest-badge")).to_have_count(0)
    page.screenshot(path=screenshots / "guest-upgraded.png")
    user = User.objects.get(username="gina")
    assert user.pk == guest_browser.pk
    assert not PlayerSettings.objects.get(user=user).is_guest
    assert Game.objects.get(pk=game_id).owner_id == user.pk
    assert Game.objects.get(pk=game_id).move_count == 1


def test_a_visitor_plays_the_daily_deal_as_a_guest_never_ranked(
    visitor: Player, screenshots: Path, settings: Any
) -> None:
    settings.DAILY_SOLVER_NODES = 20_000  # today's deal is chosen here; the server reads it
    daily.deal_for(days.today())
    page = visitor.page
    page.goto("/daily")
    page.get_by_role("button", name="Play today's deal as a guest").click()
    expect(page).to_have_url(re.compile(r"/game/\d+$"))
    expect(page.locator("#messages")).to_contain_text("guests' games are never ranked")
    game_id = int(page.url.rsplit("/", 1)[1])
    game = Game.objects.get(pk=game_id)
    assert game.daily_date == days.today()
    assert not game.ranked

    page.locator("#nav").get_by_role("link", name="Daily").click()
    attempt = page.locator(f".attempts li[data-game='{game_id}']")
    expect(attempt).to_have_class("guest")
    expect(attempt).to_contain_text("Guest game (not ranked)")
    expect(page.locator(".guest-note")).to_contain_text("guests are never ranked")
    expect(page.locator(".players")).to_contain_text("0 ranked players so far")
    page.screenshot(path=screenshots / "guest-daily.png")
