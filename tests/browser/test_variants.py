"""Russian and Alaska in Chromium: chosen in the new-game dialog and played, won, on the boards,
in a variant's daily and at a race table; screenshots of each.

The board only renders the legal moves the server sends: a move here is one of the state's
`legal_moves`, dragged onto its column. Wins are real: the known line of each variant
(tests/support/variant_wins.txt) through the move service up to its last moves, which the
page plays with taps.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import ViewportSize, expect

from games import daily, days, services
from games.engine import RULES
from games.models import Game
from games.races import rooms
from tests.browser.helpers import Player
from tests.support.play import (
    column_move,
    has_column_move,
    opening_where,
    suit_only_refusal,
    variant_winning_line,
)

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = {"U": "Russian", "A": "Alaska"}
PHONE: ViewportSize = {"width": 390, "height": 844}
LABELS = {"U": "Russian (same suit)", "A": "Alaska (same suit, up or down)"}


@pytest.fixture(autouse=True)
def small_solver_budget(settings: Any) -> None:
    """A variant's daily is chosen here (the server then reads it): keep failed proofs cheap."""
    settings.DAILY_SOLVER_NODES = 20_000


def deal_from_dialog(player: Player, letter: str, code: str = "") -> dict[str, Any]:
    """Choose the rule (and a code) in the open new-game dialog and deal; the new game's state."""
    dialog = player.page.get_by_role("dialog", name="New game")
    expect(dialog).to_be_visible()
    dialog.get_by_label(LABELS[letter]).check()
    if code:
        dialog.get_by_label("Deal code (leave empty for a random deal)").fill(code)
    before = player.page.url
    dialog.get_by_role("button", name="Deal").click()
    player.page.wait_for_url(
        lambda url: url != before and re.search(r"/game/\d+$", url) is not None
    )
    game_id = int(player.page.url.rsplit("/", 1)[1])
    state = player.state(game_id)
    player.wait_for_version(state["version"])
    return state


def test_a_player_chooses_russian_then_alaska_and_plays(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    page.goto("/")
    dialog = page.get_by_role("dialog", name="New game")
    for label in LABELS.values():
        expect(dialog.get_by_label(label)).to_be_visible()
    page.screenshot(path=str(screenshots / "variants-new-game-dialog-1280x800.png"))

    for letter in ("U", "A"):
        if letter == "A":  # from the table: the Russian game waits in My games
            page.get_by_role("button", name="New game").click()
            page.get_by_role("button", name="Keep it for later").click()
        # A deal with a move onto a column (a random one may have none), typed in the dialog.
        code = opening_where(RULES[letter], has_column_move)
        state = deal_from_dialog(alice_browser, letter, code)
        assert state["rule"] == letter and state["code"] == code
        expect(page.locator("[data-stat=status]")).to_contain_text(f"{NAMES[letter]} rules")
        card, column = column_move(state["legal_moves"])
        alice_browser.drag(card, f"slot-c{column}")
        alice_browser.wait_for_version(state["version"] + 1)
        alice_browser.expect_column(card, column)
        assert alice_browser.state(state["id"])["move_count"] == 1
        page.screenshot(
            path=str(screenshots / f"variant-{NAMES[letter].lower()}-board-1280x800.png")
        )


def test_a_russian_move_the_server_refuses_names_the_same_suit_rule(alice_browser: Player) -> None:
    """A card dropped on one rank higher of another suit: refused by Russian's rule."""
    code, move = suit_only_refusal(RULES["U"])
    page = alice_browser.page
    page.goto("/")
    state = deal_from_dialog(alice_browser, "U", code)
    assert state["code"] == code and move not in state["legal_moves"]
    card, column = move.split(">")
    alice_browser.drag(card, f"slot-c{column}")
    message = page.locator(".message.refused")
    expect(message).to_have_attribute("data-code", "wrong-suit")
    expect(message).to_contain_text("same suit")
    expect(message.locator("a.rule-link")).to_have_attribute("href", "/rules#build")


@pytest.mark.parametrize("letter", ["U", "A"])
def test_a_variant_is_won_and_shows_on_its_boards(
    alice_browser: Player, screenshots: Path, letter: str
) -> None:
    code, line = variant_winning_line(letter)
    game_id = int(alice_browser.new_game(code)["id"])
    owner = User.objects.get(username=alice_browser.name)
    version = Game.objects.get(pk=game_id).version
    for move in line[:-2]:
        version = services.play_move(owner, game_id, move=move, version=version).game.version
    alice_browser.open_game(game_id)
    for move in line[-2:]:
        assert move.endswith(">F")
        alice_browser.tap(move.split(">")[0])
        version += 1
        expect(alice_browser.page.locator("#app")).to_have_attribute("data-version", str(version))
    win = alice_browser.page.get_by_role("dialog", name="You won!")
    expect(win).to_be_visible()
    expect(win).to_contain_text(code)
    name = NAMES[letter].lower()
    alice_browser.page.screenshot(path=str(screenshots / f"variant-{name}-win-1280x800.png"))

    alice_browser.page.goto(f"/leaderboards?board=wins&rule={letter}")
    board = alice_browser.page.locator("table.ranking")
    expect(board.locator("tr[data-player=alice]")).to_be_visible()
    expect(alice_browser.page.locator(f".toggle [data-value={letter}]")).to_have_attribute(
        "aria-pressed", "true"
    )
    alice_browser.page.screenshot(
        path=str(screenshots / f"variant-{name}-leaderboard-1280x800.png")
    )
    alice_browser.page.goto("/players/alice")
    cards = alice_browser.page.locator(".stats-card")
    expect(cards).to_have_count(len(RULES))
    expect(alice_browser.page.locator(f".stats-card[data-rule={letter}]")).to_contain_text(
        NAMES[letter]
    )
    if letter == "U":
        alice_browser.page.screenshot(
            path=str(screenshots / "variant-profile-stats-1280x800.png"), full_page=True
        )
        alice_browser.page.set_viewport_size(PHONE)
        alice_browser.page.goto(f"/leaderboards?board=wins&rule={letter}")
        expect(board.locator("tr[data-player=alice]")).to_be_visible()
        alice_browser.page.screenshot(path=str(screenshots / "variant-leaderboard-390x844.png"))
        alice_browser.page.goto("/rules#alaska")
        expect(alice_browser.page.locator("#alaska h2")).to_have_text("Alaska")
        alice_browser.page.screenshot(path=str(screenshots / "variant-rules-alaska-390x844.png"))


def test_the_russian_daily_and_the_race_tables(
    alice_browser: Player, bob_browser: Player, screenshots: Path
) -> None:
    """A variant's daily page and a race of each variant, seen from a racer's table."""
    daily.deal_for(days.today(), rule=RULES["U"])
    page = alice_browser.page
    page.goto("/daily?rule=U")
    expect(page.locator("h1")).to_have_text("Today's daily deal: Russian")
    page.get_by_role("button", name="Play today's deal").click()
    page.wait_for_url(re.compile(r"/game/\d+$"))
    game = Game.objects.get(pk=int(page.url.rsplit("/", 1)[1]))
    assert (game.rule, game.ranked, game.daily_date) == ("U", True, days.today())
    page.goto("/daily?rule=U")
    expect(page.locator(".day-ranking tr[data-player=alice]")).to_be_visible()
    page.screenshot(path=str(screenshots / "variant-russian-daily-1280x800.png"), full_page=True)

    rooms_by_player = {}
    for player, letter in ((alice_browser, "U"), (bob_browser, "A")):
        racer = User.objects.get(username=player.name)
        rival = User.objects.create_user(f"{player.name}-rival")
        room = str(rooms.create(racer, rule=letter, private=True).state["room"])
        rooms.join(rival, room)
        rooms.ready(rival, room)
        rooms_by_player[player.name] = (room, letter)
        player.page.goto(f"/races/{room}")
        player.page.locator("[data-action=ready]").click()
    for player in (alice_browser, bob_browser):
        room, letter = rooms_by_player[player.name]
        expect(player.page.locator("#app")).to_have_attribute("data-status", "running")
        expect(player.page.locator("#app .board .card").first).to_be_visible()
        expect(player.page.locator(".race-head .facts")).to_contain_text(NAMES[letter])
        player.settle()
        name = NAMES[letter].lower()
        player.page.screenshot(path=str(screenshots / f"variant-{name}-race-table-1280x800.png"))
