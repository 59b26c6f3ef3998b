"""Abandoned requests never keep a pool connection (issue 13: the site went down after fast clicks).

Against one real uvicorn process (`make run`'s command) and its real psycopg
pool: raw sockets that drop requests at every point, and a headless Chromium
that navigates faster than the pages load. Afterwards no connection is checked
out, /readyz is ready and a move still plays.
"""

from __future__ import annotations

from playwright.sync_api import sync_playwright

from tests.browser.conftest import CHROMIUM_ARGS
from tests.support.aborts import (
    abort_storm,
    player_requests,
    readyz,
    record,
    session_headers,
    sign_up,
    wait_for_idle_pool,
    yesterday,
)
from tests.support.play import winning_line
from tests.support.servers import RunningServer, require_tool

CODE, _ = winning_line()  # a known deal: its first legal move is there to play

STORM_ROUNDS = 24  # x 12 cuts (2 per GET and handshake, 4 for the move): 288 connections
NAVIGATIONS = 80  # 16 rounds of the 5 pages: 8 times the pool (DB_POOL_MAX 10), were one lost each


def assert_still_serves(server: RunningServer, player_name: str) -> dict[str, object]:
    """No connection checked out, ready, and a move plays: the site survived."""
    stats = wait_for_idle_pool(server.url)
    status, body = readyz(server.url)
    assert status == 200, body
    player = sign_up(server.url, player_name)
    game = player.call("POST", "/api/v1/games", {"code": CODE})
    move = {"move": game["legal_moves"][0], "version": game["version"]}
    after = player.call("POST", f"/api/v1/games/{game['id']}/moves", move)
    assert after["version"] == game["version"] + 1
    return stats


def test_requests_dropped_at_every_point_leave_no_connection_checked_out(
    server: RunningServer, transactional_db: None
) -> None:
    player = sign_up(server.url, "dropper")
    game = player.call("POST", "/api/v1/games", {"code": CODE})
    figures = abort_storm(
        server.url, player_requests(session_headers(player), game, yesterday()), STORM_ROUNDS
    )
    stats = assert_still_serves(server, "after-drops")
    record(
        "uvicorn-raw-aborts",
        {
            "sent": figures.sent,
            "aborted": figures.aborted,
            "by_kind": figures.by_kind,
            "pool_after": stats,
        },
    )


def test_fast_navigation_in_chromium_leaves_no_connection_checked_out(
    server: RunningServer, transactional_db: None
) -> None:
    """Each page is left as soon as it starts to load: its API calls and socket are abandoned."""
    path = require_tool("chromium", "install Debian's chromium: apt-get install -y chromium")
    player = sign_up(server.url, "clicker")
    game = player.call("POST", "/api/v1/games", {"code": CODE})
    pages = [f"/daily/{yesterday()}", f"/game/{game['id']}", "/games", "/", "/leaderboards"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        context = browser.new_context(base_url=server.url)
        context.add_cookies(
            [{"name": k, "value": v, "url": server.url} for k, v in player.cookies.items()]
        )
        page = context.new_page()
        for n in range(NAVIGATIONS):
            response = page.goto(pages[n % len(pages)], wait_until="commit")
            assert response is not None and response.status < 500, (n, server.child.output())
        browser.close()
    stats = assert_still_serves(server, "after-clicks")
    record("uvicorn-chromium-navigations", {"navigations": NAVIGATIONS, "pool_after": stats})
