"""Playing at the table in Chromium: every input path sends an intent and shows the server's answer.

The deal is the known winning line's (tests/engine/data/winning_line.txt); at its start the
server allows 5H>1 (a group of three), AS>F (a tap), 6H>5 (a double click) and 2H>3.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import Player, started
from tests.support.play import winning_line

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_starts_a_game_from_a_typed_code(alice_browser: Player) -> None:
    page = alice_browser.page
    page.goto("/")
    dialog = page.get_by_role("dialog", name="New game")
    dialog.get_by_label("Deal code").fill("YU1-X-AAAAAAQ")
    dialog.get_by_role("button", name="Deal").click()
    expect(dialog.locator(".field-error")).to_contain_text("rule letter")
    dialog.get_by_label("Deal code").fill(CODE.lower())
    dialog.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"/game/\d+$"))
    expect(page.locator("[data-stat=code]")).to_have_text(CODE)
    alice_browser.wait_for_version(0)
    alice_browser.expect_column("6S", 1)
    alice_browser.expect_column("2H", 7)
    expect(page.locator(".card.face-down")).to_have_count(21)


def test_dragging_a_card_carries_everything_on_it(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    alice_browser.drag("5H", "slot-c1")
    alice_browser.wait_for_version(1)
    assert alice_browser.state(game_id)["columns"][0]["face_up"] == ["6S", "5H", "2C", "3S"]
    for card in ("5H", "2C", "3S"):
        alice_browser.expect_column(card, 1)


def test_a_tap_sends_the_last_card_to_its_foundation(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    assert alice_browser.state(game_id)["foundations"][0]["top"] == "AS"
    alice_browser.expect_foundation("AS", 0)
    expect(alice_browser.page.locator("[data-stat=score]")).to_have_text("10")


def test_a_double_click_lets_the_server_place_the_group(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    alice_browser.tap("6H", double=True)
    alice_browser.wait_for_version(1)
    assert alice_browser.api("GET", f"/games/{game_id}/log")[-1]["intent"] == "double-click"
    alice_browser.expect_column("6H", 5)


def test_a_refused_move_shows_the_rule_and_keeps_the_servers_table(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    alice_browser.drag("5S", "slot-c1")
    message = alice_browser.page.locator("#messages .message")
    expect(message).to_have_attribute("data-code", "wrong-colour")
    expect(message).to_contain_text("5♠")
    alice_browser.expect_column("5S", 6)
    assert alice_browser.state(game_id)["version"] == 0


def test_undo_with_the_button_and_ctrl_z(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    alice_browser.drag("5H", "slot-c1")
    alice_browser.wait_for_version(2)
    alice_browser.page.get_by_role("button", name="Undo").click()
    alice_browser.wait_for_version(3)
    alice_browser.expect_column("5H", 3)
    alice_browser.page.keyboard.press("Control+z")
    alice_browser.wait_for_version(4)
    alice_browser.expect_column("AS", 2)
    state = alice_browser.state(game_id)
    assert state["foundations"][0]["count"] == 0
    assert state["move_count"] == 2


def test_a_card_is_taken_back_from_its_foundation_by_dragging(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    alice_browser.drag("AS", "slot-c7")
    alice_browser.wait_for_version(2)
    assert alice_browser.state(game_id)["columns"][6]["face_up"][-1] == "AS"
    alice_browser.expect_column("AS", 7)


def test_the_board_marks_a_state_it_has_not_drawn_yet(alice_browser: Player) -> None:
    """The answer's version shows at once, the board draws it in the next frame: until then
    no card has started to slide, so "no card animation" alone would call a card settled
    where it no longer belongs (seen: a drag pressed the card that had been under the ace).
    `data-frame` on the board covers that gap, and tests wait for it to go."""
    started(alice_browser)
    alice_browser.page.evaluate(
        """() => new MutationObserver((_, observer) => {
            observer.disconnect();
            const ace = document.getElementById('card-AS').getBoundingClientRect();
            const slot = document.getElementById('slot-f0').getBoundingClientRect();
            window.seenAtVersion = {
                frame: document.querySelector('.board').dataset.frame ?? null,
                sliding: document.getAnimations().some(a => a.effect?.target?.id === 'card-AS'),
                home: Math.abs(ace.x - slot.x) < 2 && Math.abs(ace.y - slot.y) < 2,
            };
        }).observe(document.getElementById('app'), {attributeFilter: ['data-version']})"""
    )
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    seen = alice_browser.page.evaluate("window.seenAtVersion")
    assert seen == {"frame": "pending", "sliding": False, "home": False}
    alice_browser.expect_foundation("AS", 0)


def test_keyboard_play(alice_browser: Player) -> None:
    game_id = started(alice_browser)
    board = alice_browser.page.get_by_role("application")
    board.focus()
    keys = alice_browser.page.keyboard
    for _ in range(6):
        keys.press("ArrowRight")
    expect(board).to_have_attribute("aria-activedescendant", "card-2H")
    keys.press("Enter")
    for _ in range(4):
        keys.press("ArrowLeft")
    keys.press("Enter")
    alice_browser.wait_for_version(1)
    assert alice_browser.state(game_id)["columns"][2]["face_up"][-2:] == ["3S", "2H"]
    keys.press("ArrowRight")  # column 4, on 9S
    keys.press("ArrowUp")  # 8D
    keys.press("ArrowUp")  # 8C
    keys.press("ArrowUp")  # 8H
    keys.press("ArrowUp")  # 9D
    expect(board).to_have_attribute("aria-activedescendant", "card-9D")
    keys.press("Escape")
    keys.press("ArrowLeft")
    keys.press("ArrowLeft")  # column 2, AS
    keys.press("t")
    alice_browser.wait_for_version(2)
    assert alice_browser.state(game_id)["foundations"][0]["top"] == "AS"


def test_winning_the_whole_game(alice_browser: Player, screenshots: Path) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    *most, last_three = LINE[:-3], LINE[-3:]
    alice_browser.play(game_id, most[0])
    alice_browser.open_game(game_id)
    for move in last_three:
        card = move.split(">")[0]
        version = alice_browser.state(game_id)["version"]
        alice_browser.tap(card)
        alice_browser.wait_for_version(version + 1)
    win = alice_browser.page.get_by_role("dialog", name="You won!")
    expect(win).to_contain_text("625")
    alice_browser.page.screenshot(path=str(screenshots / "win-1280x800.png"))
    win.get_by_role("button", name="See the table").click()
    expect(alice_browser.page.get_by_role("button", name="Undo")).to_be_disabled()
    alice_browser.tap("KD")
    alice_browser.page.keyboard.press("Control+z")
    assert alice_browser.state(game_id)["status"] == "won"
    expect(alice_browser.page.locator("#app")).to_have_attribute("data-status", "won")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_screenshots_of_the_table(
    alice_browser: Player, screenshots: Path, width: int, height: int
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.play(game_id, LINE[:12])
    alice_browser.page.set_viewport_size({"width": width, "height": height})
    alice_browser.open_game(game_id)
    for card in ("10H", "9S"):
        box = alice_browser.card(card).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
    alice_browser.page.screenshot(
        path=str(screenshots / f"table-{width}x{height}.png"), full_page=True
    )


def test_a_click_in_the_middle_of_a_column_picks_the_group_up_and_a_click_on_a_column_places_it(
    alice_browser: Player,
) -> None:
    page = alice_browser.page
    game_id = started(alice_browser)
    alice_browser.tap("5H")  # column 3: 7H 9H 5H 2C 3S
    expect(page.locator(".card.picked")).to_have_count(3)
    expect(page.locator("#mark-c1")).to_have_class(re.compile("accept"))  # placement help
    expect(page.locator("#announcer")).to_contain_text("picked up with 2 cards on it")
    alice_browser.tap("9H")  # its own column: put back, nothing sent
    expect(page.locator(".card.picked")).to_have_count(0)
    assert alice_browser.state(game_id)["version"] == 0

    alice_browser.tap("5H")
    alice_browser.tap("6S")  # column 1
    alice_browser.wait_for_version(1)
    assert alice_browser.state(game_id)["columns"][0]["face_up"] == ["6S", "5H", "2C", "3S"]
    for card in ("5H", "2C", "3S"):
        alice_browser.expect_column(card, 1)
    expect(page.locator(".card.picked")).to_have_count(0)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_message_hides_nothing_and_leaves_when_its_table_changes(
    alice_browser: Player, screenshots: Path, width: int, height: int
) -> None:
    page = alice_browser.page
    page.set_viewport_size({"width": width, "height": height})
    started(alice_browser)
    alice_browser.drag("5S", "slot-c1")
    message = page.locator("#messages .message")
    expect(message).to_have_attribute("data-code", "wrong-colour")
    alice_browser.settle()
    page.screenshot(path=str(screenshots / f"message-{width}x{height}.png"))
    shown = message.bounding_box()
    assert shown is not None
    covered = page.evaluate(
        """(box) => [...document.querySelectorAll('.infobar .stat, .controls button, .card')]
            .filter((el) => {
                const r = el.getBoundingClientRect();
                return r.width && r.x < box.x + box.width && box.x < r.x + r.width
                    && r.y < box.y + box.height && box.y < r.y + r.height;
            })
            .map((el) => el.id || el.textContent)""",
        shown,
    )
    assert covered == []
    alice_browser.tap("AS")  # the table changes: the refusal it spoke of is gone
    alice_browser.wait_for_version(1)
    expect(message).to_have_count(0)
