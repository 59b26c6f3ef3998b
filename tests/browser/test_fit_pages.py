"""Every page that shows a board fits it in the viewport (issue 37): the replay stepped to a
24-card column, the puzzle, a spectator's table and a race, at 1366x768, 1280x800 and 390x844.
Every card and slot of the board lies inside the viewport, with nothing to scroll to.

The deal is the known winning line's; its long column is test_fit's search over the engine's
legal moves; the puzzle is a pinned position (tests/support/puzzles.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games import days
from games.analysis.models import GameAnalysis
from games.engine import Game, GameCode, Move
from games.puzzles import ratings
from games.puzzles.mining import position_key, stored_position
from games.puzzles.models import DailyPuzzle, Puzzle
from games.puzzles.proof import plausible_moves
from tests.browser.helpers import Player
from tests.browser.test_fit import CODE, LONG, long_column_line
from tests.support.analysis import lost_game
from tests.support.puzzles import seeded
from tests.support.waiting import wait_until

SCREENS = [(1366, 768), (1280, 800), (390, 844)]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def line() -> list[str]:
    return long_column_line(CODE, LONG)


OUTSIDE = """(board) => {
    const inside = (r) =>
        r.left >= -0.5 && r.top >= -0.5 &&
        r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    const pieces = document.querySelectorAll(`${board} .card, ${board} .slot`);
    const outside = [...pieces].filter((el) => !inside(el.getBoundingClientRect()));
    return { count: pieces.length, outside: outside.map((el) => el.id || el.className) };
}"""

#: The board has drawn its cards and none is still sliding.
SETTLED = """(board) => document.querySelector(board)?.querySelector('.card')
    && !document.querySelector('.board[data-frame]')
    && !document.getAnimations().some(a => a.effect?.target?.classList?.contains('card'))"""


def expect_board_in_sight(page: Page, board: str, screenshots: Path, name: str) -> None:
    """Every card and slot of `board` inside the viewport, once the board has drawn."""
    page.wait_for_function(SETTLED, arg=board)
    size = page.viewport_size
    assert size
    page.screenshot(path=str(screenshots / f"fit-{name}-{size['width']}x{size['height']}.png"))
    found: dict[str, Any] = page.evaluate(OUTSIDE, board)
    assert found["count"] > 0
    assert found["outside"] == [], f"{name} at {size}: outside the viewport: {found['outside']}"


def long_game(player: Player, line: list[str]) -> int:
    game_id = int(player.new_game(CODE)["id"])
    player.play(game_id, line)
    return game_id


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_replay_stepped_to_a_long_column_fits(
    alice_browser: Player, screenshots: Path, line: list[str], width: int, height: int
) -> None:
    game_id = long_game(alice_browser, line)
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/game/{game_id}/replay")
    page.locator("[data-step=last]").click()
    expect(page.locator(".panel.replay")).to_have_attribute("data-step", str(len(line)))
    expect_board_in_sight(page, ".replay-board", screenshots, "replay")


def test_the_analysis_and_its_way_to_win_fit_at_every_size(
    alice_browser: Player, screenshots: Path
) -> None:
    game = lost_game(User.objects.get(username="alice"))
    job = GameAnalysis.objects.filter(pk=game.pk)
    wait_until(lambda: job.get().status == GameAnalysis.Status.DONE, "the task worker's analysis")
    page = alice_browser.page
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/game/{game.pk}/replay")
        expect(page.locator(".verdict-strip .verdict")).to_have_count(game.log.count() + 1)
        expect_board_in_sight(page, ".replay-board", screenshots, "analysis")
        page.get_by_role("button", name="Show the way to win").click()
        expect(page.locator(".replay")).to_have_attribute("data-mode", "line")
        for step in range(1, 4):
            page.get_by_role("button", name="Next", exact=True).click()
            expect(page.locator(".replay")).to_have_attribute("data-step", str(step))
            expect_board_in_sight(page, ".replay-board", screenshots, "way-to-win")


def long_column_puzzle(line: list[str]) -> Puzzle:
    """A puzzle row on the 24-card column's position, as a puzzle mined from a lost game may
    be: for the page's layout only (its answer is not proven, which no test here asks)."""
    position = Game.new(GameCode.parse(CODE), bytes(settings.DEAL_KEY))
    for move in line:
        position.push(Move.parse(move))
    mu, sigma, rating = ratings.seed(3)
    return Puzzle.objects.create(
        position_key=position_key(position),
        position=stored_position(position),
        rule="C",
        solution=[str(next(iter(position.legal_moves)))],
        legal_moves=len(list(position.legal_moves)),
        plausible_moves=plausible_moves(position),
        face_down=sum(column.face_down for column in position.columns),
        refutation_nodes=0,
        line_after=0,
        difficulty=3,
        source=Puzzle.Source.SELF_PLAY,  # public, as a page anyone may open
        code=CODE,
        mu=mu,
        sigma=sigma,
        rating=rating,
    )


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_a_puzzle_of_a_long_column_fits_with_its_move_list_open(
    alice_browser: Player, screenshots: Path, line: list[str], width: int, height: int
) -> None:
    puzzle = long_column_puzzle(line)
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/puzzles/{puzzle.pk}")
    expect_board_in_sight(page, ".puzzle-board", screenshots, "long-puzzle")
    page.get_by_text("Choose from the legal moves").click()
    expect(page.locator(".puzzle-moves button").first).to_be_visible()
    expect_board_in_sight(page, ".puzzle-board", screenshots, "long-puzzle-moves")


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_puzzle_fits_with_its_move_list_open(
    alice_browser: Player, screenshots: Path, width: int, height: int
) -> None:
    seeded(3, plausible=3)  # each may be the daily puzzle
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/puzzles")
    page.get_by_role("link", name="Solve today's puzzle").click()
    daily = DailyPuzzle.objects.get(date=days.today()).puzzle
    expect(page).to_have_url(f"{alice_browser.server.url}/puzzles/{daily.pk}")
    expect_board_in_sight(page, ".puzzle-board", screenshots, "puzzle")
    page.get_by_text("Choose from the legal moves").click()
    expect(page.locator(".puzzle-moves button").first).to_be_visible()
    expect_board_in_sight(page, ".puzzle-board", screenshots, "puzzle-moves")


def test_a_spectator_sees_the_whole_long_column_at_every_size(
    alice_browser: Player, bob_browser: Player, screenshots: Path, line: list[str]
) -> None:
    game_id = long_game(alice_browser, line)
    page = bob_browser.page
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/watch/{game_id}")
        expect_board_in_sight(page, ".board", screenshots, "spectate")


def test_a_race_board_fits_at_every_size(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    room = alice_browser.api("POST", "/races", {"rule": "C", "code": CODE, "private": True})["room"]
    bob_browser.api("POST", f"/races/{room}/join")
    for player in (alice_browser, bob_browser):
        player.page.goto(f"/races/{room}")
        expect(player.page.locator("#app .racer")).to_have_count(2)
    for player in (alice_browser, bob_browser):
        player.api("POST", f"/races/{room}/ready")
    page = alice_browser.page
    expect(page.locator("#app")).to_have_attribute("data-status", "running")
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        expect_board_in_sight(page, ".race-main .board", screenshots, "race")
