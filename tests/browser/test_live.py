"""Live play in Chromium: a second page follows every move, spectators, reconnecting, and the
table's writes on its websocket (REST once the socket is gone)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Request, WebSocketRoute, expect

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import Player
from tests.support.play import winning_line
from tests.support.servers import RunningServer

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_page_follows_every_move(alice_browser: Player) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    alice_browser.open_game(game_id)
    second = alice_browser.context.new_page()
    second.goto(f"/game/{game_id}")
    expect(second.locator("#app")).to_have_attribute("data-version", "0")
    alice_browser.page.bring_to_front()  # a background tab gets no animation frames to drag with
    alice_browser.drag("5H", "slot-c1")
    alice_browser.wait_for_version(1)
    alice_browser.tap("AS")
    expect(second.locator("#app")).to_have_attribute("data-version", "2")
    expect(second.locator("[data-stat=moves]")).to_have_text("2")
    expect(second.locator("#slot-f0")).to_have_attribute("aria-label", "spades foundation, 1 card")


def test_a_spectator_lists_live_games_and_watches_one(
    alice_browser: Player, bob_browser: Player
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    bob_browser.page.goto("/watch")
    row = bob_browser.page.locator(f"tr[data-game='{game_id}']")
    expect(row).to_contain_text("alice")
    alice_browser.play(game_id, LINE[:1])
    expect(row.locator("td").nth(3)).to_have_text("1")
    row.get_by_role("link").click()
    bob_browser.wait_for_version(1)
    expect(bob_browser.page.locator(".status")).to_contain_text("Watching alice")
    expect(bob_browser.page.get_by_role("button", name="Undo")).to_have_count(0)
    alice_browser.play(game_id, LINE[1:3])
    bob_browser.wait_for_version(3)
    bob_browser.expect_column("6H", 5)


def test_a_lost_connection_shows_a_banner_reconnects_and_catches_up(
    browser: Browser, server: RunningServer, alice_browser: Player
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    watcher = Player.sign_up(browser, server, "carol", viewport=DESKTOP)
    try:
        watcher.page.goto(f"/watch/{game_id}")
        watcher.wait_for_version(0)
        watcher.context.set_offline(True)
        banner = watcher.page.locator("#banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Connection lost")
        alice_browser.play(game_id, LINE[:4])
        watcher.context.set_offline(False)
        expect(banner).to_be_hidden()  # the backoff waits at most 10 s between attempts
        watcher.wait_for_version(4)
        expect(watcher.page.locator("[data-stat=moves]")).to_have_text("4")
    finally:
        watcher.close()


def test_the_table_writes_on_its_socket_and_over_rest_once_it_is_gone(
    alice_browser: Player,
) -> None:
    game_id = int(alice_browser.new_game(CODE)["id"])
    sent: list[str] = []  # the kinds the page wrote on its socket
    posted: list[str] = []  # the REST writes
    cut = {"next_write": False, "for_good": False}

    def through(route: WebSocketRoute) -> None:
        if cut["for_good"]:
            route.close()  # every reconnect fails: the socket stays gone
            return
        server = route.connect_to_server()

        def from_page(message: str | bytes) -> None:
            kind = json.loads(message)["t"]
            server.send(message)
            if kind != "ping":
                sent.append(kind)
            if cut["next_write"] and kind != "ping":
                cut["for_good"] = True
                route.close()  # the write reached the server; its answer never comes back

        route.on_message(from_page)

    def note_post(request: Request) -> None:
        if request.method == "POST" and f"/games/{game_id}/" in request.url:
            posted.append(request.url.rsplit("/", 1)[1])

    alice_browser.page.route_web_socket(re.compile(r"/ws/v1/games/"), through)
    alice_browser.page.on("request", note_post)
    alice_browser.open_game(game_id)
    app = alice_browser.page.locator("#app")
    expect(app).to_have_attribute("data-socket", "open")
    alice_browser.drag("5H", "slot-c1")
    alice_browser.wait_for_version(1)
    assert (sent, posted) == (["move"], [])

    cut["next_write"] = True  # the socket drops with the tap under way: REST retries it
    alice_browser.tap("AS")
    alice_browser.wait_for_version(2)
    expect(app).to_have_attribute("data-socket", "lost")
    assert (sent, posted) == (["move", "tap"], ["tap"])
    alice_browser.page.keyboard.press("Control+z")  # the socket is gone: straight to REST
    alice_browser.wait_for_version(3)
    assert posted == ["tap", "undo"]
    log = alice_browser.api("GET", f"/games/{game_id}/log")
    assert [(entry["kind"], entry["intent"]) for entry in log] == [
        ("move", "move"),
        ("move", "tap"),
        ("undo", "undo"),
    ]
