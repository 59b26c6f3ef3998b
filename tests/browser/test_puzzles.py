"""Puzzles in Chromium against a real server: solve the daily puzzle by picking a card and its
place, miss the next one from the list of legal moves and see the answer; both pages at desktop
and phone sizes (screenshots in test-artifacts/screenshots)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, ViewportSize, expect

from games import days
from games.engine import read_private
from games.puzzles import stock
from games.puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt
from tests.browser.audit import Problems
from tests.browser.helpers import CORNER, Player, new_context
from tests.support.puzzles import seeded
from tests.support.servers import RunningServer

PHONE: ViewportSize = {"width": 390, "height": 844}

pytestmark = pytest.mark.django_db(transaction=True)


def place(page: Page, move: str) -> None:
    """Play `move` on the puzzle's board as a player does: click the card, then its place
    (outlined by the page once the card is picked)."""
    card, to = move.split(">")
    page.locator(f"#card-{card}").click(position=CORNER)
    expect(page.locator(".puzzle-board")).to_have_attribute("data-picked", card)
    mark = page.locator("#mark-f" if to == "F" else f"#mark-c{to}")
    expect(mark).to_have_class("drop-mark accept")
    box = mark.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 6)


def wrong_move(puzzle: Puzzle) -> str:
    board = read_private(puzzle.position)
    return next(str(move) for move in board.legal_moves if str(move) != puzzle.solution[0])


def test_a_player_solves_the_daily_puzzle_then_misses_the_next_and_sees_the_answer(
    alice_browser: Player, screenshots: Path
) -> None:
    seeded(2, steps=1, plausible=3)
    page = alice_browser.page
    page.goto("/puzzles")
    expect(page.get_by_role("heading", name="Today's puzzle")).to_be_visible()
    expect(page.locator(".puzzle-me")).to_contain_text("Puzzle rating")
    expect(page.locator(".puzzle-scale")).to_contain_text("everybody starts at 0")
    expect(page.locator(".puzzle-daily .puzzle-rating")).to_contain_text(
        "a new player solves it about"
    )
    page.screenshot(path=str(screenshots / "puzzles-1280x800.png"), full_page=True)

    page.get_by_role("link", name="Solve today's puzzle").click()
    daily = DailyPuzzle.objects.get(date=days.today()).puzzle
    expect(page).to_have_url(f"{alice_browser.server.url}/puzzles/{daily.pk}")
    expect(page.locator(".puzzle-status")).to_have_text("Pick a card, then where it goes.")
    expect(page.locator(".puzzle .puzzle-rating")).to_have_text(
        re.compile(
            r"^Rating \u2212?\d+ · (easy|medium|hard|very hard): "
            r"a new player solves it about \d+ times in 10$"
        )
    )
    page.screenshot(path=str(screenshots / "puzzle-1280x800.png"), full_page=True)
    place(page, daily.solution[0])
    expect(page.locator(".puzzle")).to_have_attribute("data-outcome", "solved")
    expect(page.locator(".puzzle-status")).to_contain_text("solved!")
    expect(page.locator(".puzzle-standing")).to_contain_text("streak 1 · daily streak 1")
    assert PuzzleAttempt.objects.get(puzzle=daily).correct

    page.get_by_role("button", name="Next puzzle").click()
    expect(page).not_to_have_url(f"{alice_browser.server.url}/puzzles/{daily.pk}")
    expect(page.locator(".puzzle-status")).to_have_text("Pick a card, then where it goes.")
    following = Puzzle.objects.get(pk=int(page.url.rsplit("/", 1)[1]))
    page.get_by_text("Choose from the legal moves").click()
    page.locator(f"[data-move='{wrong_move(following)}']").click()
    expect(page.locator(".puzzle")).to_have_attribute("data-outcome", "wrong-move")
    expect(page.locator(".puzzle-status")).to_contain_text("The move that keeps the win:")
    answer_card = page.locator(f"#card-{following.solution[0].split('>')[0]}")
    expect(answer_card).to_have_class(re.compile(r"\bpicked\b"))
    page.screenshot(path=str(screenshots / "puzzle-missed-1280x800.png"), full_page=True)
    page.get_by_role("button", name="Try again").click()
    place(page, following.solution[0])
    expect(page.locator(".puzzle")).to_have_attribute("data-outcome", "solved")
    assert not PuzzleAttempt.objects.get(puzzle=following, correct=True).rated

    page.goto("/puzzles")
    expect(page.locator(".puzzle-daily")).to_contain_text("Solved today")
    expect(page.locator(".puzzle-deck")).to_contain_text("Nothing due")

    # Solved, the puzzle opens on the analysis board, where its answer keeps the win.
    page.goto(f"/puzzles/{daily.pk}")
    page.get_by_role("button", name="Open board").click()
    expect(page).to_have_url(re.compile(r"/board/[0-9a-f]{24}$"))
    expect(page.locator(".board-panel")).to_have_attribute("data-judging", "done")
    answer = page.locator(f".board-move[data-move='{daily.solution[0]}']")
    expect(answer).to_have_attribute("data-verdict", "keeps-win")


def test_the_puzzle_pages_fit_a_phone(
    alice_browser: Player, browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    (puzzle,) = seeded(1, steps=1, plausible=3)
    phone = Player.log_in(browser, server, "alice", viewport=PHONE)
    try:
        page = phone.page
        page.goto("/puzzles")
        expect(page.get_by_role("link", name="Solve today's puzzle")).to_be_visible()
        page.screenshot(path=str(screenshots / "puzzles-390x844.png"), full_page=True)
        page.get_by_role("link", name="Solve today's puzzle").click()
        expect(page.locator(".puzzle-status")).to_have_text("Pick a card, then where it goes.")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "nothing sticks out sideways"
        card = puzzle.solution[0].split(">")[0]
        page.locator(f"#card-{card}").click(position=CORNER)
        expect(page.locator(".puzzle-board")).to_have_attribute("data-picked", card)
        page.screenshot(path=str(screenshots / "puzzle-390x844.png"), full_page=True)
        place_box = page.locator(".puzzle-board").bounding_box()
        assert place_box is not None and place_box["width"] <= PHONE["width"]
    finally:
        phone.close()


#: The puzzles page's heading, its daily button and the puzzle's task, in each language.
WORDS = {
    "hu": ("Feladványok", "A mai feladvány megoldása", "Találd meg azt az egy lépést"),
    "pt": ("Problemas", "Resolver o problema de hoje", "Encontre a única jogada"),
    "de": ("Rätsel", "Rätsel des Tages lösen", "Finden Sie den einen Zug"),
}


def test_the_puzzle_pages_speak_the_players_language_on_a_phone(
    browser: Browser, server: RunningServer, transactional_db: None, screenshots: Path
) -> None:
    seeded(1, steps=1, plausible=3)
    for language, (heading, button, task) in WORDS.items():
        context = new_context(browser, server, viewport=PHONE, locale=language)
        try:
            context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
            page = context.new_page()
            page.goto("/puzzles")
            expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
            expect(page.locator("#nav")).to_contain_text(heading)
            page.get_by_role("link", name=button).click()
            expect(page.get_by_role("heading", level=1)).to_contain_text(task)
            page.screenshot(path=str(screenshots / f"puzzle-{language}-390x844.png"))
        finally:
            context.close()


def test_a_fresh_sites_puzzle_pages_show_no_console_error(
    browser: Browser,
    server: RunningServer,
    transactional_db: None,
    monkeypatch: pytest.MonkeyPatch,
    screenshots: Path,
) -> None:
    """Issue 37: on a fresh site `/puzzles` said "There is no puzzle yet" and the daily
    puzzle's page logged a console error. A fresh site's startup mines its first public
    puzzles (seeded here, and not cut short by a busy machine)."""
    monkeypatch.setattr(stock, "DEAL_SECONDS", math.inf)
    call_command("stock_puzzles", "--count", "1", "--seed", "fresh-site", "--seconds", "3600")
    context = new_context(browser, server)
    try:
        page = context.new_page()
        problems = Problems(page)
        page.goto("/puzzles")
        page.get_by_role("link", name="Solve today's puzzle").click()
        expect(page.locator(".puzzle-status")).to_have_text("Pick a card, then where it goes.")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(screenshots / "puzzle-fresh-site-1280x800.png"), full_page=True)
        assert problems.found == []
    finally:
        context.close()
