"""The production split survives abandoned requests: no pool connection stays checked out."""

from __future__ import annotations

import pytest

from scripts.cluster import Cluster, create_players
from tests.deploy.test_cluster import new_game, play
from tests.support.aborts import (
    abort_storm,
    player_requests,
    readyz,
    record,
    token_headers,
    wait_for_idle_pool,
    yesterday,
)
from tests.support.http import send

pytestmark = pytest.mark.redis

STORM_ROUNDS = 8  # x 12 cuts (2 per GET and handshake, 4 for the move): 96 per worker


def test_requests_dropped_at_every_point_leave_every_worker_serving(cluster: Cluster) -> None:
    """Pages, API reads and writes, websocket handshakes, cut anywhere, on every ASGI worker."""
    (token,) = create_players(cluster.env, 1)
    web = cluster.of_kind("web")[0]
    game = new_game(web, token)
    figures: dict[str, object] = {}
    for worker in cluster.workers:
        requests = player_requests(token_headers(worker.url, token), game, yesterday())
        storm = abort_storm(worker.url, requests, STORM_ROUNDS)
        figures[f"{worker.kind}:{worker.port}"] = {"sent": storm.sent, "aborted": storm.aborted}
    for worker in cluster.workers:
        stats = wait_for_idle_pool(worker.url)
        status, body = readyz(worker.url)
        assert status == 200, (worker.url, body)
        figures[f"{worker.kind}:{worker.port}"]["pool_after"] = stats  # type: ignore[index]
    state = send(web.url, f"/api/v1/games/{game['id']}", token)[1]
    for worker in cluster.workers:  # a move still plays through every worker
        state = play(worker, token, state)
    record("cluster-raw-aborts", figures)
