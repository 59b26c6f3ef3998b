"""The table fits the screen: at laptop, desktop and phone sizes, a real game with a column of 20+
cards shows the whole table inside the viewport and every face-up card's rank uncovered.

The long column is built by the server from real moves: a beam search over the engine's legal
moves on the known deal finds a line that grows one column, and the test plays it through the API.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Page

from games.engine import FOUNDATION, Game, GameCode
from tests.browser.helpers import Player
from tests.support.play import winning_line

CODE, _ = winning_line()
LONG = 24
SCREENS = [(1366, 768), (1920, 1080), (390, 844)]

pytestmark = pytest.mark.django_db(transaction=True)


def _longest(game: Game) -> int:
    return max(c.face_down + len(c.face_up) for c in game.columns)


def long_column_line(code: str, length: int, width: int = 20, depth: int = 40) -> list[str]:
    """Legal tableau moves from the deal's start that leave a column of `length`+ cards: each
    step keeps the `width` positions with the longest column, never revisiting one."""
    start = Game.new(GameCode.parse(code), bytes(settings.DEAL_KEY))
    seen = {start.state_key()}
    frontier: list[tuple[Game, list[str]]] = [(start, [])]
    for _ in range(depth):
        grown: list[tuple[int, Game, list[str]]] = []
        for game, line in frontier:
            for move in list(game.legal_moves):
                if move.to == FOUNDATION:
                    continue
                game.push(move)
                if game.state_key() not in seen:
                    seen.add(game.state_key())
                    grown.append((_longest(game), game.copy(), [*line, str(move)]))
                game.pop()
        grown.sort(key=lambda item: -item[0])
        if grown and grown[0][0] >= length:
            return grown[0][2]
        frontier = [(game, line) for _, game, line in grown[:width]]
    raise AssertionError(f"no line builds a {length}-card column on {code}")


@pytest.fixture(scope="module")
def line() -> list[str]:
    return long_column_line(CODE, LONG)


MEASURE = """(columns) => {
    const box = (el) => el.getBoundingClientRect();
    const faults = [];
    const inside = (r) =>
        r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    for (const slot of document.querySelectorAll('.slot')) {
        if (!inside(box(slot))) faults.push(`${slot.id} outside the viewport`);
    }
    let faceUp = 0;
    columns.forEach((cards) => cards.forEach((card, i) => {
        faceUp += 1;
        const el = document.getElementById(`card-${card}`);
        const rank = box(el.querySelector('.rank'));
        const pip = box(el.querySelector('.pip'));
        if (!inside(rank)) faults.push(`${card}: rank outside the viewport`);
        if (!inside(pip)) faults.push(`${card}: suit outside the viewport`);
        const index = Math.max(rank.bottom, pip.bottom);
        const next = cards[i + 1] && box(document.getElementById(`card-${cards[i + 1]}`));
        if (next && index > next.top + 0.5)
            faults.push(`${card}: index bottom ${index} under ${cards[i + 1]} at ${next.top}`);
        const hit = document.elementFromPoint(rank.x + rank.width / 2, rank.y + rank.height / 2);
        if (!el.contains(hit)) faults.push(`${card}: rank covered by ${hit?.id}`);
    }));
    const scroll = document.documentElement.scrollHeight;
    return { faults, faceUp, scroll, board: box(document.querySelector('.board')) };
}"""


def measure(page: Page, state: dict[str, Any]) -> dict[str, Any]:
    columns = [column["face_up"] for column in state["columns"]]
    return dict(page.evaluate(MEASURE, columns))


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_a_long_column_fits_with_every_rank_readable(
    alice_browser: Player, screenshots: Path, line: list[str], width: int, height: int
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    state = alice_browser.play(game_id, line)
    longest = max(c["face_down"] + len(c["face_up"]) for c in state["columns"])
    assert longest >= LONG
    alice_browser.page.set_viewport_size({"width": width, "height": height})
    alice_browser.open_game(game_id)
    figures = measure(alice_browser.page, state)
    alice_browser.page.screenshot(path=str(screenshots / f"fit-{width}x{height}.png"))
    assert figures["faults"] == []
    assert figures["faceUp"] == sum(len(c["face_up"]) for c in state["columns"])
    assert figures["board"]["bottom"] <= height
    assert figures["scroll"] <= height, "the page scrolls"


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_a_fresh_deal_uses_the_width(
    alice_browser: Player, screenshots: Path, width: int, height: int
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.page.set_viewport_size({"width": width, "height": height})
    alice_browser.open_game(game_id)
    figures = measure(alice_browser.page, alice_browser.state(game_id))
    assert figures["faults"] == []
    boxes = [
        alice_browser.page.locator(f"#slot-{slot}").bounding_box()
        for slot in ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "f0", "f1", "f2", "f3")
    ]
    left = min(b["x"] for b in boxes if b)
    right = max(b["x"] + b["width"] for b in boxes if b)
    assert right - left >= 0.8 * width, f"the table spans {right - left} of {width} pixels"
    alice_browser.page.screenshot(path=str(screenshots / f"fit-deal-{width}x{height}.png"))
