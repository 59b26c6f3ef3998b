"""A pool that runs dry answers 503 and recovers by itself once its connections come back."""

from __future__ import annotations

import json
import urllib.error
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg

from tests.robustness.test_aborts import CODE, assert_still_serves
from tests.support import servers
from tests.support.aborts import SessionPlayer, pool_stats, readyz, sign_up
from tests.support.servers import RunningServer
from tests.support.waiting import wait_until

DRY_TIMEOUT = 30


def answer(player: SessionPlayer, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    try:
        return 200, player.call(method, path, body)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def test_a_dry_pool_answers_503_then_recovers_without_a_restart(
    server: RunningServer, transactional_db: None
) -> None:
    player = sign_up(server.url, "holder")
    size = pool_stats(server.url)["max"]
    games = [player.call("POST", "/api/v1/games", {"code": CODE}) for _ in range(size)]
    ids = [game["id"] for game in games]
    with ThreadPoolExecutor(size) as pool, psycopg.connect(servers.test_database_url()) as holder:
        # One move per pool connection, each stuck on a row lock this test holds.
        holder.execute("SELECT id FROM games_game WHERE id = ANY(%s) FOR UPDATE", [ids])
        moves = [
            pool.submit(
                answer,
                player,
                "POST",
                f"/api/v1/games/{game['id']}/moves",
                {"move": game["legal_moves"][0], "version": game["version"]},
            )
            for game in games
        ]
        wait_until(
            lambda: pool_stats(server.url)["in_use"] >= size,
            lambda: f"every pool connection in use: {pool_stats(server.url)}",
            timeout=DRY_TIMEOUT,
        )
        for path in (f"/api/v1/games/{ids[0]}", f"/game/{ids[0]}"):  # the API, and a page
            status, body = answer(player, "GET", path)
            assert status == 503 and body["error"]["code"] == "database-unavailable", body
        status, body = readyz(server.url)
        assert status == 503 and body["database"] is False, body
        # Leaving the block ends the holder's transaction (its locks go) before the pool joins.
    assert [move.result()[0] for move in moves] == [200] * size
    assert_still_serves(server, "after-dry-pool")
