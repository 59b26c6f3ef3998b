"""A table people enjoy, in Chromium: the win's cascade and result (once, never again on a
reload), the daily rank in it, play again and next deal; card backs, table colours and sounds
chosen in Settings and kept by the server; the clock's note and its resync.

Wins are real: the known winning line (tests/engine/data/winning_line.txt) is played through
the API up to its last moves, which the page plays with taps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, ViewportSize, expect

from games import days, services
from games.engine import GameCode
from games.models import DailyDeal, Game
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import Player, new_context
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, LINE = winning_line()
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
CARD_BACKS = {
    "blue": "Blue lattice",
    "red": "Red diamonds",
    "green": "Green checks",
    "night": "Night and gold",
}
TABLE_COLOURS = {
    "green": "Green felt",
    "blue": "Blue felt",
    "wine": "Wine-red felt",
    "slate": "Slate grey",
}
#: Counts the oscillators any AudioContext of the page starts: every project sound is made of
#: them (sounds.js), so a sound played is a count that grows.
COUNT_TONES = """
    window.tones = 0;
    const original = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () {
        window.tones += 1;
        return original.call(this);
    };
"""
#: Records whether a cascade layer was ever put on the page.
WATCH_CASCADE = """
    window.cascadeSeen = false;
    new MutationObserver(() => {
        if (document.querySelector('.cascade')) window.cascadeSeen = true;
    }).observe(document, {childList: true, subtree: true});
"""

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def carol_browser(
    browser: Browser, server: RunningServer, transactional_db: None
) -> Iterator[Player]:
    """A player whose browser asks for reduced motion."""
    player = Player.sign_up(browser, server, "carol", viewport=DESKTOP, reduced_motion="reduce")
    player.page.add_init_script(WATCH_CASCADE)
    yield player
    player.close()


def nearly_won(player: Player, game_id: int, left: int = 1) -> list[str]:
    """Play the winning line but its last `left` moves, open the game; the moves left.

    The moves go through the game service here (the server's own code, on the same
    database), which is quicker than HTTP; the page then plays the winning ones itself.
    """
    owner = User.objects.get(username=player.name)
    version = Game.objects.get(pk=game_id).version
    for move in LINE[:-left]:
        version = services.play_move(owner, game_id, move=move, version=version).game.version
    player.open_game(game_id)
    return LINE[-left:]


def finish(player: Player, game_id: int, moves: list[str]) -> None:
    """Tap the last cards home (each is a tap to its foundation in the winning line).

    After the winning tap the page is not settled (`Player.settle`): the cascade's cards are
    cards in flight until it ends, and the tests look at it while it runs.
    """
    for move in moves:
        version = player.state(game_id)["version"]
        player.tap(move.split(">")[0])
        expect(player.page.locator("#app")).to_have_attribute("data-version", str(version + 1))


def expect_another_game(page: Page, game_id: int) -> int:
    """Wait until the page shows a game other than `game_id`; its id."""
    page.wait_for_url(
        lambda url: (
            re.search(r"/game/(\d+)$", url) is not None and not url.endswith(f"/game/{game_id}")
        )
    )
    return int(page.url.rsplit("/", 1)[1])


def expect_no_celebration(page: Page) -> None:
    """Once the celebration module has surely run (imported here, then one task later), neither
    a cascade nor a win dialog is on the page."""
    page.evaluate(
        """async () => {
            await import('/static/frontend/js/celebration.js');
            await new Promise((resolve) => setTimeout(resolve, 0));
        }"""
    )
    expect(page.locator(".cascade")).to_have_count(0)
    expect(page.locator("dialog.win")).to_have_count(0)


def test_a_win_cascades_then_shows_the_result_once(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    page.set_viewport_size(LAPTOP)
    game_id = int(alice_browser.new_game(CODE)["id"])
    finish(alice_browser, game_id, nearly_won(alice_browser, game_id, left=3))
    cascade = page.locator(".cascade")
    expect(cascade).to_be_visible()
    page.wait_for_function("Number(document.querySelector('.cascade')?.dataset.launched) >= 24")
    page.screenshot(path=str(screenshots / "win-cascade-1366x768.png"))
    win = page.get_by_role("dialog", name="You won!")
    expect(win).to_be_visible()
    expect(cascade).to_have_count(0)
    won = alice_browser.state(game_id)
    expect(win.locator("[data-stat=moves]")).to_have_text(str(won["move_count"]))
    expect(win.locator("[data-stat=score]")).to_have_text(str(won["score"]))
    expect(win.locator("[data-stat=time]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(win.locator("[data-stat=daily-rank]")).to_have_count(0)
    expect(win).to_contain_text(CODE)
    page.screenshot(path=str(screenshots / "win-result-1366x768.png"))

    page.reload()
    alice_browser.wait_for_version(won["version"])
    expect(page.locator("#app")).to_have_attribute("data-status", "won")
    expect(page.locator("[data-stat=status]")).to_contain_text("Won")
    expect_no_celebration(page)


def test_reduced_motion_shows_only_the_result(carol_browser: Player, screenshots: Path) -> None:
    carol_browser.page.set_viewport_size(PHONE)
    game_id = int(carol_browser.new_game(CODE)["id"])
    finish(carol_browser, game_id, nearly_won(carol_browser, game_id))
    expect(carol_browser.page.get_by_role("dialog", name="You won!")).to_be_visible()
    assert carol_browser.page.evaluate("window.cascadeSeen") is False
    carol_browser.page.screenshot(path=str(screenshots / "win-result-reduced-motion-390x844.png"))


def test_a_daily_win_shows_its_rank_and_play_again_deals_it_again(
    carol_browser: Player, screenshots: Path
) -> None:
    DailyDeal.objects.create(
        date=days.today(), number=GameCode.parse(CODE).number, candidate=0, verdict="winnable"
    )
    game_id = int(carol_browser.api("POST", "/daily/play")["id"])
    finish(carol_browser, game_id, nearly_won(carol_browser, game_id))
    win = carol_browser.page.get_by_role("dialog", name="You won!")
    expect(win.locator("[data-stat=daily-rank]")).to_contain_text("Rank 1 of 1 on the daily deal")
    expect(win.get_by_role("link", name="See the board")).to_have_attribute(
        "href", f"/daily/{days.today()}"
    )
    carol_browser.page.screenshot(path=str(screenshots / "win-daily-rank-1280x800.png"))
    win.get_by_role("button", name="Play again (practice)").click()
    again = expect_another_game(carol_browser.page, game_id)
    state = carol_browser.state(again)
    assert (state["daily"], state["ranked"], state["version"]) == (str(days.today()), False, 0)


def test_play_again_deals_the_same_code_and_next_deal_a_new_one(carol_browser: Player) -> None:
    game_id = int(carol_browser.new_game(CODE)["id"])
    finish(carol_browser, game_id, nearly_won(carol_browser, game_id))
    carol_browser.page.get_by_role("dialog", name="You won!").get_by_role(
        "button", name="Play again"
    ).click()
    again = expect_another_game(carol_browser.page, game_id)
    assert (carol_browser.state(again)["code"], carol_browser.state(again)["status"]) == (
        CODE,
        "active",
    )

    finish(carol_browser, again, nearly_won(carol_browser, again))
    carol_browser.page.get_by_role("dialog", name="You won!").get_by_role(
        "button", name="Next deal"
    ).click()
    fresh = carol_browser.state(expect_another_game(carol_browser.page, again))
    assert fresh["rule"] == "C" and fresh["code"] != CODE and fresh["version"] == 0


def test_looks_and_sounds_follow_the_player_to_a_new_browser(
    alice_browser: Player, browser: Browser, screenshots: Path
) -> None:
    page = alice_browser.page
    page.set_viewport_size(LAPTOP)
    page.goto("/settings")
    root = page.locator("html")
    expect(root).to_have_attribute("data-card-back", "blue")
    expect(page.get_by_role("checkbox", name="Sounds")).not_to_be_checked()
    page.screenshot(path=str(screenshots / "settings-1366x768.png"), full_page=True)
    page.get_by_text("Night and gold").click()
    expect(root).to_have_attribute("data-card-back", "night")
    page.get_by_text("Wine-red felt").click()
    expect(root).to_have_attribute("data-table", "wine")
    page.get_by_role("checkbox", name="Sounds").check()
    expect(page.locator(".saved")).to_contain_text("Sounds on")

    # The server writes the look into the page itself: the first paint wears it.
    response = page.reload()
    assert response is not None
    assert 'data-card-back="night" data-table="wine"' in response.text()
    expect(page.get_by_role("radio", name="Night and gold")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Sounds")).to_be_checked()

    elsewhere = Player.log_in(browser, alice_browser.server, "alice", viewport=PHONE)
    try:
        elsewhere.page.goto("/settings")
        expect(elsewhere.page.locator("html")).to_have_attribute("data-table", "wine")
        expect(elsewhere.page.get_by_role("radio", name="Wine-red felt")).to_be_checked()
        expect(elsewhere.page.get_by_role("checkbox", name="Sounds")).to_be_checked()
        elsewhere.page.screenshot(path=str(screenshots / "settings-390x844.png"), full_page=True)
        elsewhere.page.get_by_role("checkbox", name="Sounds").uncheck()
        expect(elsewhere.page.locator(".saved")).to_contain_text("Sounds off")
    finally:
        elsewhere.close()
    page.reload()
    expect(page.get_by_role("checkbox", name="Sounds")).not_to_be_checked()


def test_each_card_back_and_table_colour(alice_browser: Player, screenshots: Path) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.play(game_id, LINE[:6])
    alice_browser.page.set_viewport_size(LAPTOP)
    felts, patterns = set(), set()
    for back, table in zip(CARD_BACKS, TABLE_COLOURS, strict=True):
        alice_browser.api("PATCH", "/me/settings", {"card_back": back, "table_colour": table})
        alice_browser.open_game(game_id)
        felts.add(
            alice_browser.page.locator("body").evaluate(
                "el => getComputedStyle(el).backgroundColor"
            )
        )
        patterns.add(
            alice_browser.page.locator(".card.face-down").first.evaluate(
                "el => getComputedStyle(el).backgroundImage"
            )
        )
        alice_browser.page.screenshot(
            path=str(screenshots / f"look-{back}-back-{table}-table-1366x768.png")
        )
    assert (len(felts), len(patterns)) == (len(TABLE_COLOURS), len(CARD_BACKS))


def refuse_and_move(player: Player, game_id: int, card: str, *, double: bool = False) -> None:
    """A move the server refuses (5S on column 1's red-less top), then `card`'s move."""
    version = player.state(game_id)["version"]
    player.drag("5S", "slot-c1")
    expect(player.page.locator("#messages .message")).to_have_attribute("data-code", "wrong-colour")
    player.tap(card, double=double)
    player.wait_for_version(version + 1)


def test_sounds_play_only_when_switched_on(alice_browser: Player) -> None:
    page = alice_browser.page
    page.add_init_script(COUNT_TONES)
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.open_game(game_id)
    refuse_and_move(alice_browser, game_id, "AS")
    assert page.evaluate("window.tones") == 0
    assert not page.evaluate(
        "performance.getEntriesByType('resource').some(r => r.name.endsWith('/sounds.js'))"
    )

    page.goto("/settings")
    page.get_by_role("checkbox", name="Sounds").check()
    page.wait_for_function("window.tones > 0")  # switching them on plays a sample
    alice_browser.open_game(game_id)
    assert page.evaluate("window.tones") == 0
    alice_browser.drag("5S", "slot-c1")
    page.wait_for_function("window.tones > 0")  # the refusal
    refused = page.evaluate("window.tones")
    alice_browser.tap("6H", double=True)
    alice_browser.wait_for_version(2)
    page.wait_for_function(f"window.tones > {refused}")  # the move


def test_the_clock_says_it_stops_while_parked_and_resyncs_on_return(
    alice_browser: Player, screenshots: Path
) -> None:
    page = alice_browser.page
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.open_game(game_id)
    note = page.locator("[data-note=clock]")
    expect(note).to_have_attribute("data-text", re.compile("stops while the game is parked"))
    alice_browser.tap("AS")
    alice_browser.wait_for_version(1)
    note.focus()
    page.screenshot(path=str(screenshots / "clock-note-1280x800.png"))
    with page.expect_response(f"**/api/v1/games/{game_id}/park"):
        page.evaluate("window.dispatchEvent(new Event('pagehide'))")
    with page.expect_response(f"**/api/v1/games/{game_id}/resume") as answer:
        page.evaluate("window.dispatchEvent(new Event('pageshow'))")
    elapsed = answer.value.json()["elapsed_seconds"]
    page.wait_for_function(
        """(elapsed) => {
            const [m, s] = document.querySelector('[data-stat=time]').textContent.split(':');
            return Math.abs(Number(m) * 60 + Number(s) - elapsed) <= 1.5;
        }""",
        arg=elapsed,
    )


def test_a_guest_keeps_its_look_too(browser: Browser, server: RunningServer) -> None:
    context = new_context(browser, server, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_role("button", name="Play now").click()
        expect(page).to_have_url(re.compile(r"/game/\d+$"))
        page.goto("/settings")
        page.get_by_text("Slate grey").click()
        expect(page.locator("html")).to_have_attribute("data-table", "slate")
        expect(page.locator(".saved")).to_contain_text("Slate grey")
        response = page.reload()
        assert response is not None and 'data-table="slate"' in response.text()
    finally:
        context.close()
