"""Resign with a confirmation, "New game" on an unfinished game, resuming from My games, and a
new game dialog that never traps the player (real Chromium)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import PASSWORD, Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, MOVES = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_new_game_dialog_after_signing_up_can_be_dismissed(
    browser: Browser, server: RunningServer, screenshots: Path
) -> None:
    context = new_context(browser, server, viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto("/signup")
        page.get_by_label("Username").fill("dora")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create my account").click()
        dialog = page.get_by_role("dialog", name="New game")
        expect(dialog).to_be_visible()
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        page.screenshot(path=screenshots / "new-game-dismissed.png")
        page.locator("#nav .account-toggle").click()  # one's own pages: under one's name
        page.locator("#nav").get_by_role("link", name="My games").click()
        expect(page).to_have_url(re.compile(r"/games$"))
        page.locator("#nav").get_by_role("link", name="Play").click()
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_have_count(0)
        page.locator("[data-action=new-game]").click()
        dialog.get_by_role("button", name="Deal").click()
        expect(page).to_have_url(re.compile(r"/game/\d+$"))
    finally:
        context.close()


def test_new_game_keeps_or_resigns_the_unfinished_one_and_my_games_resumes_it(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    first = int(alice_browser.new_game(CODE)["id"])
    alice_browser.play(first, MOVES[:1])
    alice_browser.open_game(first)

    page.get_by_role("button", name="New game").click()
    question = page.get_by_role("dialog", name="This game is not finished")
    expect(question).to_be_visible()
    page.screenshot(path=screenshots / "new-game-unfinished.png")
    question.get_by_role("button", name="Keep it for later").click()
    page.get_by_role("dialog", name="New game").get_by_role("button", name="Deal").click()
    expect(page).not_to_have_url(re.compile(rf"/game/{first}$"))
    expect(page).to_have_url(re.compile(r"/game/\d+$"))
    assert alice_browser.state(first)["status"] == "active"

    page.locator("#nav .account-toggle").click()
    page.locator("#nav").get_by_role("link", name="My games").click()
    unfinished = page.locator(".unfinished")
    expect(unfinished.locator(f"li[data-game='{first}']")).to_contain_text("1 move")
    page.screenshot(path=screenshots / "my-games-unfinished.png")
    unfinished.locator(f"li[data-game='{first}']").get_by_role("link", name="Resume").click()
    expect(page).to_have_url(re.compile(rf"/game/{first}$"))
    alice_browser.wait_for_version(1)

    # Resign asks first; Esc keeps playing.
    page.locator("[data-action=resign]").click()
    confirm = page.get_by_role("dialog", name="Resign this game?")
    expect(confirm).to_be_visible()
    page.keyboard.press("Escape")
    expect(confirm).to_have_count(0)
    expect(page.locator("#app")).to_have_attribute("data-status", "active")
    page.locator("[data-action=resign]").click()
    page.screenshot(path=screenshots / "resign-confirm.png")
    confirm.get_by_role("button", name="Resign").click()
    expect(page.locator("#app")).to_have_attribute("data-status", "abandoned")
    expect(page.locator("[data-action=resign]")).to_be_disabled()
    stats = alice_browser.api("GET", "/players/alice")["stats"]["C"]
    assert (stats["games"], stats["wins"], stats["win_rate"]) == (1, 0, 0.0)

    # "New game" on another unfinished game: resign it from the question.
    second = int(alice_browser.new_game(CODE)["id"])
    alice_browser.play(second, MOVES[:1])
    alice_browser.open_game(second)
    page.get_by_role("button", name="New game").click()
    question.get_by_role("button", name="Resign it").click()
    expect(page.get_by_role("dialog", name="New game")).to_be_visible()
    assert alice_browser.state(second)["status"] == "abandoned"
