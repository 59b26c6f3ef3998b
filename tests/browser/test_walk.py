"""A walk through every page of the app, signed in and anonymous: no console error, no failed
request, and no accessibility violation axe-core finds (issue 32).

The walk covers every route of `frontend/static/frontend/js/router.js`: a route added there
without a page here fails the walk.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from games import daily, days
from games.arenas.models import Arena
from games.engine import GameCode
from games.models import DailyDeal, Game
from games.odds import dataset
from tests.browser.audit import Problems, axe_script, axe_violations
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import Player, new_context
from tests.support.arenas import arena_on_known_deals
from tests.support.play import variant_winning_line, winning_line
from tests.support.puzzles import seeded
from tests.support.servers import ROOT, RunningServer

CODE, LINE = winning_line()
ROUTER = ROOT / "frontend" / "static" / "frontend" / "js" / "router.js"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def small_solver_budget(settings: Any) -> None:
    """Today's deal is chosen here (the server then reads it): keep a failed proof cheap."""
    settings.DAILY_SOLVER_NODES = 20_000


def routes() -> list[re.Pattern[str]]:
    """The client-side routes, read from router.js (each line `[/^…$/, () => import(…`)."""
    found = re.findall(r"^\s*\[/(\^.*?\$)/,", ROUTER.read_text(), flags=re.MULTILINE)
    assert found, f"no route found in {ROUTER}"
    return [re.compile(pattern.replace(r"\/", "/")) for pattern in found]


#: One path per page; the ids are filled in by `the_app` (and made up for the coverage check).
PAGES = (
    "/", "/game/{playing}", "/game/{won}/replay", "/watch/{playing}", "/watch", "/login",
    "/signup", "/settings", "/games", "/tokens", "/account", "/account/forgot", "/account/reset",
    "/account/email", "/security", "/daily", "/daily/{day}",
    "/daily/{day}/games/{won}/replay", "/daily/{day}/line", "/leaderboards", "/players/alice",
    "/races", "/races/{room}", "/arenas", "/arenas/{arena}", "/rules", "/puzzles",
    "/puzzles/{puzzle}", "/odds", "/board/{board}",
)  # fmt: skip


def the_app(player: Player) -> dict[str, object]:
    """A server with something on every page, and the ids of its paths: alice with a game on
    the table and a won one, a closed day with her ranked win, a race room, a running arena
    she plays in, today's deal, a puzzle (today's too), the published odds and an analysis
    board on the won game."""
    daily.deal_for(days.today())
    playing = int(player.new_game(CODE)["id"])
    player.play(playing, LINE[:3])
    won = int(player.new_game(CODE)["id"])
    assert player.play(won, LINE)["status"] == "won"
    yesterday = days.today() - timedelta(days=1)
    DailyDeal.objects.create(
        date=yesterday, number=GameCode.parse(CODE).number, candidate=0, verdict="winnable"
    )
    Game.objects.filter(pk=won).update(daily_date=yesterday, ranked=True)
    room = player.api("POST", "/races", {"private": True})["room"]
    # Her arena deals an Alaska deal: her Classic games' replays stay open to the solver.
    arena = arena_on_known_deals(starts_at=timezone.now() - timedelta(seconds=1))
    Arena.objects.filter(pk=arena.pk).update(rule="A", deals=[variant_winning_line("A")[0]])
    player.api("POST", f"/arenas/{arena.pk}/join")
    (puzzle,) = seeded(plausible=3)
    dataset.load()
    board = player.api("POST", f"/games/{won}/board", {"version": 3})["key"]
    return {
        "playing": playing,
        "won": won,
        "day": yesterday,
        "room": room,
        "puzzle": puzzle.pk,
        "board": board,
        "arena": arena.pk,
    }


def visit(page: Page, path: str) -> None:
    """Load `path` and wait until the app has drawn it and its requests are over."""
    page.goto(path)
    page.wait_for_selector("body[data-ready=true]", state="attached")
    page.wait_for_load_state("networkidle")


def walk(page: Page, paths: list[str]) -> tuple[list[str], list[str]]:
    """Every page in turn: the problems seen while it loaded, and axe-core's violations."""
    problems = Problems(page)
    violations: list[str] = []
    for path in paths:
        try:
            visit(page, path)
        except PlaywrightError as error:
            raise AssertionError(f"{path} never got drawn: {problems.found}") from error
        violations += [f"{path}: {violation}" for violation in axe_violations(page)]
    return problems.found, violations


def test_the_walk_covers_every_route() -> None:
    ids = {"playing": 1, "won": 2, "day": "2026-11-03", "room": "ABC234", "puzzle": 3}
    ids["board"] = "0123456789abcdef01234567"
    ids["arena"] = 4
    paths = [page.format(**ids) for page in PAGES]
    missing = [p.pattern for p in routes() if not any(p.fullmatch(path) for path in paths)]
    assert missing == [], f"routes of router.js the walk does not visit: {missing}"


@pytest.mark.parametrize("who", ["signed-in", "anonymous"])
def test_every_page_has_no_console_error_and_no_accessibility_violation(
    browser: Browser, server: RunningServer, transactional_db: None, who: str
) -> None:
    axe_script()  # fails at once, saying how to get it, when axe-core is not installed
    alice = Player.sign_up(browser, server, "alice", viewport=DESKTOP)
    visitor = new_context(browser, server, viewport=DESKTOP)
    try:
        ids = the_app(alice)
        page = alice.page if who == "signed-in" else visitor.new_page()
        problems, violations = walk(page, [path.format(**ids) for path in PAGES])
        assert problems == [], "\n".join(problems)
        assert violations == [], "\n".join(violations)
    finally:
        visitor.close()
        alice.close()
