"""Feedback while dragging in Chromium: targets outlined above the cards, the target under the
pointer marked as the server's legal moves say, cancelling puts the cards back, and a refusal's
message hides no card.

The deal is the known winning line's: at its start the server allows 5H>1 (a group of three
from column 3) and refuses 5S>1 (wrong colour).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FloatRect, Page, Request, expect

from tests.browser.helpers import Player
from tests.support.play import winning_line

CODE, _ = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def started(player: Player, *, auto_placement: bool = False) -> dict[str, Any]:
    player.api("PATCH", "/me/settings", {"auto_placement": auto_placement})
    state = player.new_game(CODE)
    player.open_game(int(state["id"]))
    return state


def accepted_columns(state: dict[str, Any], card: str) -> set[int]:
    moves = [m.split(">") for m in state["legal_moves"]]
    return {int(to) for from_, to in moves if from_ == card and to != "F"}


#: The write messages the table may send on the game's socket (docs/realtime.md).
SOCKET_WRITES = {"move", "tap", "double-click", "undo", "resign"}


def writes(page: Page) -> list[str]:
    """Every write the page sends from now on, over REST or on the game's socket, by name
    (a cancelled drag must send none). Call it before the game opens, so that its socket
    is watched from the start."""
    sent: list[str] = []

    def seen(request: Request) -> None:
        if request.method != "GET" and "/api/v1/" in request.url:
            sent.append(request.url.rsplit("/", 1)[1])

    def frame_sent(payload: str | bytes) -> None:
        message = json.loads(payload)
        if isinstance(message, dict) and message.get("t") in SOCKET_WRITES:
            sent.append(message["t"])

    page.on("request", seen)
    page.on("websocket", lambda socket: socket.on("framesent", frame_sent))
    return sent


def pick_up(player: Player, card: str) -> None:
    box = player.card(card).bounding_box()
    assert box is not None
    player.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 8)
    player.page.mouse.down()


def move_over(player: Player, selector: str, *, dy: float | None = None) -> None:
    """Carry the picked cards until the pointer is over `selector` (its middle, or `dy` down)."""
    box = player.page.locator(selector).bounding_box()
    assert box is not None
    y = box["y"] + (box["height"] / 2 if dy is None else dy)
    player.page.mouse.move(box["x"] + box["width"] / 2, y, steps=8)


def boxes_overlap(a: FloatRect, b: FloatRect) -> bool:
    return min(a["x"] + a["width"], b["x"] + b["width"]) > max(a["x"], b["x"]) and min(
        a["y"] + a["height"], b["y"] + b["height"]
    ) > max(a["y"], b["y"])


def test_accepting_columns_are_outlined_above_the_cards_and_the_target_marked(
    alice_browser: Player, screenshots: Path
) -> None:
    state = started(alice_browser)
    accepting = accepted_columns(state, "5H")
    assert 1 in accepting
    refusing = next(col for col in range(1, 8) if col not in accepting and col != 3)
    pick_up(alice_browser, "5H")
    move_over(alice_browser, "#card-6S")
    page = alice_browser.page
    for col in range(1, 8):
        mark = page.locator(f"#mark-c{col}")
        if col in accepting:
            hover = " hover hover-accept" if col == 1 else ""
            expect(mark).to_have_class("drop-mark accept" + hover)
        else:
            expect(mark).to_have_count(0)
    # Above the cards: the outline's layer is higher than every card it lies over, and it
    # covers the whole column down to its last card (6S, 5H's target, lies under it).
    above = page.evaluate(
        """() => {
            const mark = document.getElementById("mark-c1");
            const z = Number(getComputedStyle(mark).zIndex);
            const box = mark.getBoundingClientRect();
            const under = [...document.querySelectorAll(".card:not(.dragging)")].filter((card) => {
                const c = card.getBoundingClientRect();
                return c.x < box.right && c.right > box.x && c.y < box.bottom && c.bottom > box.y;
            });
            const last = Math.max(...under.map((card) => card.getBoundingClientRect().bottom));
            return { parent: mark.parentElement === under[0].parentElement, count: under.length,
                     higher: under.every((card) => z > Number(getComputedStyle(card).zIndex)),
                     covers: box.bottom >= last - 1 };
        }"""
    )
    assert above == {"parent": True, "count": above["count"], "higher": True, "covers": True}
    assert above["count"] >= 1
    page.screenshot(path=str(screenshots / "drag-accept-1280x800.png"))
    move_over(alice_browser, f"#slot-c{refusing}", dy=10)
    expect(page.locator(f"#mark-c{refusing}")).to_have_class("drop-mark hover hover-refuse")
    expect(page.locator("#mark-c1")).to_have_class("drop-mark accept")
    page.screenshot(path=str(screenshots / "drag-refuse-1280x800.png"))
    page.keyboard.press("Escape")
    page.mouse.up()
    expect(page.locator(".drop-mark")).to_have_count(0)


def nowhere(page: Page) -> tuple[float, float]:
    """A point where the carried card overlaps no drop target, for either arrangement.

    Foundations beside the columns (wide screens): below the foundation block. Foundations
    over columns 4-7 (narrow screens): above column 1, left of the foundations.
    """
    board = page.locator(".board").bounding_box()
    column = page.locator("#slot-c1").bounding_box()
    last = page.locator("#slot-c7").bounding_box()
    foundation = page.locator("#slot-f3").bounding_box()
    assert board and column and last and foundation
    if foundation["x"] > last["x"] + last["width"]:
        return foundation["x"] + foundation["width"] / 2, foundation["y"] + 2.5 * foundation[
            "height"
        ]
    return column["x"] + column["width"] / 2, board["y"] + 6


@pytest.mark.parametrize("auto_placement", [False, True], ids=["manual", "auto-placement"])
@pytest.mark.parametrize("how", ["escape", "release-over-nothing"])
def test_a_cancelled_drag_puts_the_cards_back_and_sends_nothing(
    alice_browser: Player, auto_placement: bool, how: str
) -> None:
    sent = writes(alice_browser.page)
    state = started(alice_browser, auto_placement=auto_placement)
    game_id = int(state["id"])
    before = {card: alice_browser.card(card).bounding_box() for card in ("5H", "2C", "3S")}
    pick_up(alice_browser, "5H")
    if how == "escape":
        move_over(alice_browser, "#slot-c1", dy=10)
        expect(alice_browser.page.locator("#mark-c1.hover")).to_have_count(1)
        alice_browser.page.keyboard.press("Escape")
    else:
        alice_browser.page.mouse.move(*nowhere(alice_browser.page), steps=8)
        expect(alice_browser.page.locator(".drop-mark.hover")).to_have_count(0)
    alice_browser.page.mouse.up()
    expect(alice_browser.page.locator(".drop-mark")).to_have_count(0)
    expect(alice_browser.page.locator(".card.dragging")).to_have_count(0)
    alice_browser.settle()
    for card, box in before.items():
        now = alice_browser.card(card).bounding_box()
        assert box is not None and now is not None
        assert abs(now["x"] - box["x"]) < 1 and abs(now["y"] - box["y"]) < 1, card
    # A click afterwards reaches the server: had a write been sent, it would be before this one.
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    assert sent == ["tap"]
    assert alice_browser.api("GET", f"/games/{game_id}/log")[-1]["intent"] == "tap"


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_refusal_message_hides_no_card_and_can_be_dismissed(
    alice_browser: Player, screenshots: Path, width: int, height: int
) -> None:
    alice_browser.page.set_viewport_size({"width": width, "height": height})
    started(alice_browser)
    alice_browser.drag("5S", "slot-c1")
    message = alice_browser.page.locator("#messages.docked .message")
    expect(message).to_have_attribute("data-code", "wrong-colour")
    alice_browser.expect_column("5S", 6)
    alice_browser.settle()
    box = message.bounding_box()
    assert box is not None
    cards = alice_browser.page.locator(".card")
    for i in range(cards.count()):
        card = cards.nth(i).bounding_box()
        assert card is not None
        assert not boxes_overlap(box, card), cards.nth(i).get_attribute("id")
    alice_browser.page.screenshot(path=str(screenshots / f"refusal-{width}x{height}.png"))
    message.get_by_role("button", name="Dismiss the message").click()
    expect(message).to_have_count(0)


def test_a_card_picked_with_the_keyboard_gets_the_same_outlines(alice_browser: Player) -> None:
    state = started(alice_browser)
    board = alice_browser.page.get_by_role("application")
    board.focus()
    for _ in range(6):
        alice_browser.page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("aria-activedescendant", "card-2H")
    alice_browser.page.keyboard.press("Enter")
    for col in accepted_columns(state, "2H"):
        expect(alice_browser.page.locator(f"#mark-c{col}")).to_have_class("drop-mark accept")
    expect(alice_browser.page.locator(".drop-mark")).to_have_count(
        len(accepted_columns(state, "2H"))
    )
    alice_browser.page.keyboard.press("Escape")
    expect(alice_browser.page.locator(".drop-mark")).to_have_count(0)
