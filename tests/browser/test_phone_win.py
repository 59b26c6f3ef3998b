"""A phone game by touch (390 by 844), from the landing page to a win with Finish: Play now deals a
guest a random game, "New game" with a typed code replaces that untouched deal, a card in the
middle of a column is picked up with the cards on it and placed by two taps, the last cards are
tapped until every card is face up, and Finish plays the rest home, scored as the same moves
played one by one.

The deal is the known winning line's (tests/engine/data/winning_line.txt); its 64th move turns
the last face-down card up. The moves in between go through the game service (the server's own
code), as in the other win tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games import services
from games.models import Game
from tests.browser.helpers import CORNER, Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, LINE = winning_line()
PHONE = {"width": 390, "height": 844}
#: After this many moves of the line every card is face up (tests/api/test_finish.py finds it).
ALL_FACE_UP = 64

pytestmark = pytest.mark.django_db(transaction=True)


def game_in_url(page: Page) -> int:
    return int(page.url.rsplit("/", 1)[1])


def touch(player: Player, card: str) -> None:
    """A finger on the card's corner, once the board has settled."""
    player.settle()
    player.card(card).tap(position=CORNER)


def test_a_phone_game_from_the_landing_page_to_a_win_with_finish(
    browser: Browser, server: RunningServer, transactional_db: None, screenshots: Path
) -> None:
    context = new_context(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_role("button", name="Play now").tap()
        expect(page).to_have_url(re.compile(r"/game/\d+$"))
        dealt = game_in_url(page)
        expect(page.locator("#app")).to_have_attribute("data-version", "0")

        # "New game" (under "More" on a phone) on the untouched random deal: the known deal by
        # its code, in its place.
        page.get_by_role("button", name="More").tap()
        page.get_by_role("button", name="New game").tap()
        dialog = page.get_by_role("dialog", name="New game")
        dialog.get_by_label("Deal code").fill(CODE)
        dialog.get_by_role("button", name="Deal").tap()
        expect(page).not_to_have_url(re.compile(rf"/game/{dealt}$"))
        game_id = game_in_url(page)
        owner = Game.objects.get(pk=game_id).owner
        player = Player(owner.username, context, page, server)
        player.wait_for_version(0)
        assert not Game.objects.filter(pk=dealt).exists()
        assert [game["id"] for game in player.api("GET", "/games")["results"]] == [game_id]

        # The line's first moves by touch: AS home with a tap; then 6H, in the middle of column
        # 7 with four cards on it, picked up by a tap and put on column 5 by a tap on its 7C.
        touch(player, "AS")
        player.wait_for_version(1)
        touch(player, "6H")
        expect(page.locator(".card.picked")).to_have_count(5)
        touch(player, "7C")
        player.wait_for_version(2)
        for card in ("6H", "KH", "KD", "10H", "2H"):
            player.expect_column(card, 5)
        assert [entry["move"] for entry in player.api("GET", f"/games/{game_id}/log")] == LINE[:2]

        # The line up to four taps before every card is face up, then those taps.
        version = 2
        for move in LINE[2 : ALL_FACE_UP - 4]:
            version = services.play_move(owner, game_id, move=move, version=version).game.version
        player.open_game(game_id)
        finish = page.locator("[data-action=finish]")
        for move in LINE[ALL_FACE_UP - 4 : ALL_FACE_UP]:
            expect(finish).to_be_hidden()
            touch(player, move.split(">")[0])
            version += 1
            player.wait_for_version(version)
        expect(finish).to_be_visible()
        page.screenshot(path=str(screenshots / "phone-finish-offered-390x844.png"))

        finish.tap()
        win = page.get_by_role("dialog", name="You won!")
        expect(win).to_be_visible()
        won = player.state(game_id)
        assert won["status"] == "won"
        expect(win.locator("[data-stat=score]")).to_have_text(str(won["score"]))
        expect(win.locator("[data-stat=moves]")).to_have_text(str(won["move_count"]))
        page.screenshot(path=str(screenshots / "phone-finish-won-390x844.png"))

        # Scored exactly as the same moves played one by one through the API.
        log = player.api("GET", f"/games/{game_id}/log")
        finished = [entry["move"] for entry in log if entry["intent"] == "finish"]
        assert len(finished) == len(LINE) - ALL_FACE_UP
        again = int(player.new_game(CODE)["id"])
        by_hand = player.play(again, [entry["move"] for entry in log])
        assert by_hand["status"] == "won"
        assert (by_hand["score"], by_hand["move_count"]) == (won["score"], won["move_count"])
    finally:
        context.close()
