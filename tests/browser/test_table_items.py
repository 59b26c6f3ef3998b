"""The table's items of issue 37: no message ever covers a card or a drop target, a race shows the
time left, "Skip to the table" lands on the board, help the server would refuse is refused up
front, the skip prompt speaks to a finger on a touch phone, the "?" button under More has a
name, and the odds are one click from the new game dialog.

Every deal is fixed: the known winning line's (tests/engine/data/winning_line.txt), grown into a
24-card column by test_fit's search over the engine's legal moves.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from games.models import Game
from tests.browser.audit import axe_violations
from tests.browser.helpers import Player, started
from tests.browser.test_fit import CODE, LONG, long_column_line
from tests.daily.helpers import left_from_before
from tests.support.play import winning_line
from tests.support.servers import RunningServer

PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENS = [(390, 844), (1366, 768), (1280, 800)]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def line() -> list[str]:
    return long_column_line(CODE, LONG)


COVERED = """() => {
    const box = (el) => el.getBoundingClientRect();
    const meets = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const message = box(document.querySelector('#messages'));
    const board = box(document.querySelector('.board'));
    const faults = [];
    for (const el of document.querySelectorAll('.board .card, .board .slot')) {
        if (meets(message, box(el))) faults.push(`covers ${el.id || el.className}`);
    }
    for (const slot of document.querySelectorAll('.board .slot[id^=slot-c]')) {
        const s = box(slot);
        const band = { left: s.left, right: s.right, top: s.top, bottom: board.bottom };
        if (meets(message, band)) faults.push(`covers the drop target of ${slot.id}`);
    }
    const inside = message.top >= 0 && message.bottom <= innerHeight;
    return { faults, inside, height: message.height };
}"""


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_a_hint_beside_the_longest_column_covers_no_card_nor_drop_target(
    alice_browser: Player, screenshots: Path, line: list[str], width: int, height: int
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.play(game_id, line)
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    alice_browser.open_game(game_id)
    page.locator("[data-assist=hint]").click()
    page.get_by_role("dialog", name="Ask the solver?").get_by_role(
        "button", name="Ask the solver"
    ).click()
    expect(page.locator("#messages .message")).to_be_visible()
    alice_browser.settle()
    shape = page.evaluate(COVERED)
    page.screenshot(path=str(screenshots / f"message-long-column-{width}x{height}.png"))
    assert shape["faults"] == []
    assert shape["inside"], "the message is off the screen"
    assert shape["height"] > 0


def test_skip_to_the_table_lands_on_the_board_ready_for_the_arrow_keys(
    alice_browser: Player,
) -> None:
    started(alice_browser)
    page = alice_browser.page
    page.keyboard.press("Tab")
    expect(page.locator("a.skip")).to_be_focused()
    page.keyboard.press("Enter")
    board = page.locator(".board[role=application]")
    expect(board).to_be_focused()
    before = board.get_attribute("aria-activedescendant")
    page.keyboard.press("ArrowRight")
    expect(board).not_to_have_attribute("aria-activedescendant", before or "")
    expect(page.locator(".board .cursor")).to_have_count(1)


def test_the_keys_button_under_more_on_a_phone_says_what_it_is(
    browser: Browser, server: RunningServer, transactional_db: None, screenshots: Path
) -> None:
    phone = Player.sign_up(browser, server, "alice", viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        started(phone)
        phone.page.get_by_role("button", name="More").tap()
        keys = phone.page.locator("[data-action=keys]")
        expect(keys).to_be_visible()
        expect(keys).to_contain_text("Keyboard controls")
        phone.page.screenshot(path=str(screenshots / "more-menu-phone.png"))
        assert axe_violations(phone.page) == []
        phone.api("PATCH", "/me/settings", {"language": "de"})
        phone.page.reload()
        phone.page.locator(".more-toggle").tap()
        expect(phone.page.locator("[data-action=keys]")).to_contain_text("Tastenbelegung")
    finally:
        phone.close()


def test_the_odds_are_one_click_from_the_new_game_dialog(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    page.goto("/")
    dialog = page.get_by_role("dialog", name="New game")
    expect(dialog.get_by_role("link", name="The odds of Yukon")).to_be_visible()
    page.screenshot(path=str(screenshots / "new-game-odds-link.png"))
    assert axe_violations(page) == []
    dialog.get_by_role("link", name="The odds of Yukon").click()
    expect(page).to_have_url(re.compile(r"/odds$"))
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator("h1")).to_be_visible()


def test_a_touch_phone_is_told_to_tap_to_skip_the_celebration(
    browser: Browser, server: RunningServer, transactional_db: None, screenshots: Path
) -> None:
    code, moves = winning_line()
    phone = Player.sign_up(browser, server, "alice", viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        game_id = int(phone.new_game(code)["id"])
        phone.play(game_id, moves[:-1])
        phone.open_game(game_id)
        phone.play(game_id, moves[-1:])
        note = phone.page.locator(".cascade .skip-note")
        expect(note).to_have_text("Tap to skip")
        phone.page.screenshot(path=str(screenshots / "cascade-phone.png"))
    finally:
        phone.close()


def _seconds(text: str) -> int:
    found = re.search(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def _time_left(race: dict[str, Any]) -> float:
    ends = datetime.fromisoformat(race["ends_at"])
    now = datetime.fromisoformat(race["server_now"])
    return (ends - now).total_seconds()


def test_a_race_shows_the_time_left_counting_down_from_its_end(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    room = alice_browser.api("POST", "/races", {"rule": "C", "time_limit_minutes": 2})["room"]
    bob_browser.api("POST", f"/races/{room}/join")
    bob_browser.page.set_viewport_size(PHONE)
    for player in (alice_browser, bob_browser):
        player.page.goto(f"/races/{room}")
        expect(player.page.locator("#app .racer")).to_have_count(2)
    for player in (alice_browser, bob_browser):
        player.api("POST", f"/races/{room}/ready")
    for player in (alice_browser, bob_browser):
        page = player.page
        expect(page.locator("#app")).to_have_attribute("data-status", "running")
        shown = page.locator("[data-part=time-left]")
        expect(shown).to_be_visible()
        left = _time_left(player.api("GET", f"/races/{room}"))
        assert 100 <= left <= 120
        assert abs(_seconds(shown.inner_text()) - left) <= 3, shown.inner_text()
        first = shown.inner_text()
        expect(shown).not_to_have_text(first)
        assert _seconds(shown.inner_text()) < _seconds(first)
        box = shown.bounding_box()
        viewport = page.viewport_size
        assert box and viewport and box["y"] + box["height"] <= viewport["height"]
    alice_browser.page.screenshot(path=str(screenshots / "race-time-left-desktop.png"))
    assert axe_violations(bob_browser.page) == []
    bob_browser.page.screenshot(path=str(screenshots / "race-time-left-phone.png"))


def test_help_the_server_would_refuse_is_refused_up_front_without_asking(
    alice_browser: Player, screenshots: Path
) -> None:
    ranked = alice_browser.api("POST", "/daily/play", {})
    assert ranked["ranked"]
    # A practice game of the deal left from before rehearsals were refused: the one game of
    # today's deal besides the ranked attempt a player can hold, whose help waits.
    ranked_game = Game.objects.get(pk=ranked["id"])
    practice = {"id": left_from_before(ranked_game.owner, ranked_game).pk}
    page = alice_browser.page
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    alice_browser.open_game(int(practice["id"]))
    hint = page.locator("[data-assist=hint]")
    expect(hint).to_have_attribute("aria-disabled", "true")
    hint.click(force=True)  # dimmed for assistive technology, it still answers a press
    message = page.locator("#messages .message[data-code=deal-in-play]")
    expect(message).to_contain_text("ranked attempt of this deal in play")
    expect(page.get_by_role("dialog", name="Ask the solver?")).to_have_count(0)
    page.screenshot(path=str(screenshots / "help-refused-up-front.png"))
    assert axe_violations(page) == []
    assert [url for url in asked if url.endswith(("/hint", "/winnability"))] == []


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_a_refusal_on_a_race_board_covers_no_card_nor_drop_target(
    alice_browser: Player,
    bob_browser: Player,
    screenshots: Path,
    line: list[str],
    width: int,
    height: int,
) -> None:
    room = alice_browser.api("POST", "/races", {"rule": "C", "code": CODE, "private": True})
    bob_browser.api("POST", f"/races/{room['room']}/join")
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/races/{room['room']}")
    expect(page.locator("#app .racer")).to_have_count(2)
    for player in (alice_browser, bob_browser):
        player.api("POST", f"/races/{room['room']}/ready")
    expect(page.locator("#app")).to_have_attribute("data-status", "running")
    game = int(alice_browser.api("GET", f"/races/{room['room']}")["me"]["game"])
    state = alice_browser.play(game, line)
    expect(page.locator("#app")).to_have_attribute("data-game-version", str(state["version"]))
    alice_browser.settle()
    # A column's top card dropped where it does not build: the server refuses, the page says so.
    tops = [column["face_up"][-1] for column in state["columns"] if column["face_up"]]
    refused = next(
        (card, f"slot-c{target + 1}")
        for card in tops
        for target in range(7)
        if f"{card}>{target + 1}" not in state["legal_moves"]
        and state["columns"][target]["face_up"]
        and card not in state["columns"][target]["face_up"]
    )
    alice_browser.drag(*refused)
    expect(page.locator("#messages .message")).to_be_visible()
    shape = page.evaluate(COVERED)
    page.screenshot(path=str(screenshots / f"message-race-{width}x{height}.png"))
    assert shape["faults"] == []
    assert shape["inside"]
