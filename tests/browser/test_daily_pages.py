"""The daily deal, leaderboard, profile and replay pages in Chromium, against a real server.

The server runs in another process, so "yesterday" is made in the database here (its deal
row, real games played through the API, then filed under that day) instead of moving clocks.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, ViewportSize, expect

from games import daily, days, deals
from games.engine import GameCode, private_form
from games.models import DailyDeal, Game
from tests.browser.helpers import Player
from tests.support.play import winning_line

CODE, LINE = winning_line()
RELAXED_CODE = CODE.replace("-C-", "-R-")
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
#: Rows on a ranking page (the pages ask for 20).
PAGE_SIZE = 20

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def small_solver_budget(settings: Any) -> None:
    """Today's deal is chosen here (the server then reads it): keep a failed proof cheap."""
    settings.DAILY_SOLVER_NODES = 20_000


def todays_code() -> str:
    return str(daily.code_of(daily.deal_for(days.today())))


def expect_code_hidden(page: Page, code: str) -> None:
    """Neither the text nor any attribute of the page holds the running day's code."""
    assert code not in page.locator("body").inner_text()
    assert code not in page.content()


def expect_foundation(page: Page, index: int, cards: int) -> None:
    """The foundation slot's label counts its cards ("1 card", "13 cards")."""
    suit = ("spades", "hearts", "diamonds", "clubs")[index]
    label = re.compile(rf"^{suit} foundation, {cards} cards?$")
    expect(page.locator(f"#slot-f{index}")).to_have_attribute("aria-label", label)


def faster_winners(day: date, count: int) -> None:
    """`count` ranked winners of `day`, all in fewer moves than the winning line (tied)."""
    players = User.objects.bulk_create(User(username=f"pro{n:02}") for n in range(count))
    start = datetime.combine(day, time(1), tzinfo=UTC)
    state = private_form(deals.new_game(GameCode.parse(CODE)))
    Game.objects.bulk_create(
        Game(
            owner=player,
            code=CODE,
            state=state,
            daily_date=day,
            ranked=True,
            status=Game.Status.WON,
            move_count=len(LINE) - 10,
            cards_on_foundations=52,
            first_move_at=start,
            last_move_at=start + timedelta(minutes=5),
            finished_at=start + timedelta(minutes=5),
        )
        for player in players
    )


def win(player: Player, code: str) -> int:
    game_id = int(player.new_game(code)["id"])
    assert player.play(game_id, LINE)["status"] == "won"
    return game_id


def abandon(player: Player, game_id: int) -> None:
    version = player.state(game_id)["version"]
    player.api("POST", f"/games/{game_id}/abandon", {"version": version})


def test_todays_deal_ranked_then_practice_live_ranking_and_no_code(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    code = todays_code()
    page = alice_browser.page
    page.goto("/daily")
    expect(page.locator("[data-countdown]")).to_contain_text("Closes in")
    page.get_by_role("button", name="Play today's deal").click()
    expect(page).to_have_url(re.compile(r"/game/\d+$"))
    expect(page.locator("#messages")).to_contain_text("ranked game of today's deal")
    expect(page.locator("#app")).to_have_attribute("data-version", "0")
    expect_code_hidden(page, code)

    page.goto("/daily")  # no rehearsal: practice waits for the ranked game's end
    expect(page.locator(".attempts li.ranked")).to_contain_text("Ranked game")
    expect(page.get_by_role("button", name="Play again (practice)")).to_have_count(0)
    expect(page.locator("[data-note=practice-closed]")).to_contain_text("Practice opens once")
    mine = page.locator("tr[data-player=alice]")
    expect(mine).to_contain_text("Playing")
    expect(mine).to_have_class("mine")
    expect(page.get_by_role("link", name="Replay")).to_have_count(0)

    expect(page.locator(".day-ranking")).to_have_attribute("data-live", "open")
    expect(page.locator("tr[data-player=bob]")).to_have_count(0)
    bob_game = int(bob_browser.api("POST", "/daily/play")["id"])
    abandon(bob_browser, bob_game)
    expect(page.locator("tr[data-player=bob]")).to_contain_text("Abandoned")
    expect(page.locator(".players")).to_contain_text("2 ranked players")
    expect_code_hidden(page, code)
    page.screenshot(path=str(screenshots / "daily-today-1280x800.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(screenshots / "daily-today-390x844.png"), full_page=True)

    page.set_viewport_size(DESKTOP)
    abandon(alice_browser, int(page.locator(".attempts li.ranked").get_attribute("data-game") or 0))
    page.goto("/daily")
    page.get_by_role("button", name="Play again (practice)").click()
    expect(page.locator("#messages")).to_contain_text("Practice game")
    page.goto("/daily")
    expect(page.locator(".attempts li.practice")).to_contain_text("Practice game")
    expect(page.get_by_text("Later attempts are practice")).to_be_visible()


def test_a_closed_day_shows_its_code_ranking_and_replays_move_by_move(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    todays_code()
    yesterday = days.today() - timedelta(days=1)
    DailyDeal.objects.create(
        date=yesterday, number=GameCode.parse(CODE).number, candidate=0, verdict="winnable"
    )
    won = win(alice_browser, CODE)
    lost = int(bob_browser.new_game(CODE)["id"])
    bob_browser.play(lost, LINE[:5])
    abandon(bob_browser, lost)
    Game.objects.filter(pk__in=[won, lost]).update(daily_date=yesterday, ranked=True)
    faster_winners(yesterday, PAGE_SIZE)

    page = alice_browser.page
    page.goto("/daily")
    page.get_by_role("link", name="← Previous day").click()
    expect(page).to_have_url(f"{alice_browser.server.url}/daily/{yesterday}")
    expect(page.locator("[data-code]")).to_have_text(CODE)
    expect(page.locator("tr[data-player=pro00] td.rank")).to_have_text("1=")
    apart = page.locator("tr.apart[data-player=alice]")  # my row, below the first page
    expect(apart.locator("td.rank")).to_have_text(str(PAGE_SIZE + 1))
    expect(apart).to_contain_text("Won")
    expect(page.locator("tr[data-player=bob]")).to_have_count(0)
    expect(page.locator(".my-rank")).to_contain_text(
        f"Your rank: {PAGE_SIZE + 1} of {PAGE_SIZE + 2}. Won in {len(LINE)} moves"
    )
    page.screenshot(path=str(screenshots / "daily-past-1280x800.png"), full_page=True)
    page.get_by_role("button", name="Next page").click()
    expect(page.locator("tr[data-player=bob] td.rank")).to_have_text(str(PAGE_SIZE + 2))
    expect(page.locator("tr[data-player=alice]")).to_have_class("mine")
    expect(page).to_have_url(f"{alice_browser.server.url}/daily/{yesterday}?page=2")

    page.get_by_role("link", name="Replay the game of alice").click()
    status = page.locator(".replay-step")
    expect(status).to_have_text(f"Step 0 of {len(LINE)}: the deal. Next: A♠ to its foundation.")
    expect_foundation(page, 0, 0)
    page.get_by_role("button", name="Next", exact=True).click()
    expect(status).to_contain_text(f"Step 1 of {len(LINE)}: A♠ to its foundation ·")
    expect_foundation(page, 0, 1)
    page.get_by_role("button", name="Last", exact=True).click()
    expect(page.locator(".replay")).to_have_attribute("data-step", str(len(LINE)))
    for index in range(4):
        expect_foundation(page, index, 13)
    page.get_by_role("button", name="Previous", exact=True).click()
    expect(page.locator(".replay")).to_have_attribute("data-step", str(len(LINE) - 1))
    page.get_by_role("button", name="First", exact=True).click()
    page.get_by_role("button", name="Play", exact=True).click()
    # It steps on by itself; a busy machine may draw a step too briefly to be seen, so wait
    # for it to have passed step 1 rather than to show one exact step.
    page.wait_for_function("Number(document.querySelector('.replay').dataset.step) >= 2")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )
    page.screenshot(path=str(screenshots / "replay-1280x800.png"), full_page=True)


def test_a_past_day_nobody_played_shows_its_code_and_the_solvers_line(
    alice_browser: Player, screenshots: Path
) -> None:
    """Its deal is the one the day would have dealt, chosen on the first ask (the server runs a
    task worker, which finds the line)."""
    todays_code()
    day = days.today() - timedelta(days=3)
    page = alice_browser.page
    page.goto(f"/daily/{day}")
    expect(page.locator("[data-code]")).to_have_text(re.compile(r"^YU1-C-[A-Z]{7}$"))
    chosen = str(daily.code_of(DailyDeal.objects.get(date=day)))
    expect(page.locator("[data-code]")).to_have_text(chosen)
    expect(page.locator(".day-ranking .empty")).to_have_text("Nobody has played this deal yet.")
    page.screenshot(path=str(screenshots / "daily-past-unplayed-1280x800.png"), full_page=True)
    page.locator("[data-solver-line]").click()
    expect(page).to_have_url(f"{alice_browser.server.url}/daily/{day}/line")
    expect(page.get_by_text("A winning line the solver found:")).to_be_visible()
    page.get_by_role("button", name="Last", exact=True).click()
    for index in range(4):
        expect_foundation(page, index, 13)


def test_leaderboards_switch_rule_refresh_live_and_link_to_profiles(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    alice_win = win(alice_browser, CODE)
    win(bob_browser, RELAXED_CODE)
    page = alice_browser.page
    page.goto("/leaderboards")
    board = page.locator(".board-body")
    expect(board.locator("tr[data-player=alice]")).to_contain_text("1")
    expect(board.locator("tr[data-player=bob]")).to_have_count(0)
    page.get_by_role("button", name="Relaxed").click()
    expect(board.locator("tr[data-player=bob]")).to_be_visible()
    expect(board.locator("tr[data-player=alice]")).to_have_count(0)
    page.get_by_role("button", name="Fewest moves").click()
    expect(board.locator("tr[data-player=bob] td.measure")).to_have_text(str(len(LINE)))
    expect(page).to_have_url(f"{alice_browser.server.url}/leaderboards?board=fewest-moves&rule=R")

    page.get_by_role("button", name="Classic").click()
    page.get_by_role("button", name="Most wins").click()
    expect(board.locator("tr[data-player=alice] td.rank")).to_have_text("1")
    expect(board).to_have_attribute("data-live", "open")
    win(bob_browser, CODE)
    expect(board.locator("tr[data-player=bob] td.rank")).to_have_text("1=")
    page.screenshot(path=str(screenshots / "leaderboards-1280x800.png"), full_page=True)

    board.get_by_role("link", name="alice").click()
    expect(page).to_have_url(f"{alice_browser.server.url}/players/alice")
    classic = page.locator(".stats-card[data-rule=C]")
    expect(classic.locator("[data-stat=games]")).to_have_text("1")
    expect(classic.locator("[data-stat=wins]")).to_have_text("1")
    expect(classic.locator("[data-stat=win_rate]")).to_have_text("100.0%")
    expect(classic.locator("[data-stat=fewest_moves]")).to_have_text(str(len(LINE)))
    expect(page.locator(".stats-card[data-rule=R] [data-stat=games]")).to_have_text("0")
    expect(page.locator(f"tr[data-game='{alice_win}']")).to_contain_text("Won")
    expect(page.get_by_role("link", name=CODE)).to_have_attribute("href", f"/game/{alice_win}")
    page.screenshot(path=str(screenshots / "profile-1280x800.png"), full_page=True)
    page.get_by_role("button", name="Relaxed").click()
    expect(page.locator(".history")).to_contain_text("No finished Relaxed games yet.")
