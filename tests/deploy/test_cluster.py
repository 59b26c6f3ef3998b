"""The production topology with real processes: cross-worker play, crashes, outages, shutdown."""

from __future__ import annotations

import http.client
import json
import re
import signal
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
import redis
from channels_redis.core import RedisChannelLayer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from games.pushes import game_group
from scripts.cluster import Cluster, Worker, create_players
from tests.deploy.conftest import CODE
from tests.support.http import send
from tests.support.waiting import wait_until

pytestmark = pytest.mark.redis

#: A ceiling, never a pause: each wait ends when its message or answer comes; generous so a
#: machine whose cores are busy with other work does not fail a test that would pass.
TIMEOUT = 60
RECOVERY_TIMEOUT = 60
CONNECTION_ERRORS = (urllib.error.URLError, ConnectionError, http.client.HTTPException)
TLS_ONLY_WARNINGS = {"security.W004", "security.W008"}  # HSTS and SSL redirect: set behind TLS


def new_game(worker: Worker, token: str) -> dict[str, Any]:
    status, state = send(worker.url, "/api/v1/games", token, {"code": CODE})
    assert status == 201, state
    return dict(state)


def play(worker: Worker, token: str, state: dict[str, Any], index: int = 0) -> dict[str, Any]:
    move = state["legal_moves"][index % len(state["legal_moves"])]
    path = f"/api/v1/games/{state['id']}/moves"
    status, answer = send(worker.url, path, token, {"move": move, "version": state["version"]})
    assert status == 200, answer
    return dict(answer)


def watch(worker: Worker, game_id: int) -> ClientConnection:
    socket = connect(
        f"{worker.ws_url}/ws/v1/games/{game_id}/",
        origin=Origin(worker.url),
        open_timeout=TIMEOUT,
        legacy=True,  # returned, not entered: the caller enters it (`with watch(...) as socket`)
    )
    assert [json.loads(socket.recv(timeout=TIMEOUT))["t"] for _ in range(2)] == ["hello", "state"]
    return socket


def database(cluster: Cluster) -> psycopg.Connection[tuple[Any, ...]]:
    return psycopg.connect(cluster.database_url, autocommit=True)


def test_check_deploy_reports_only_the_warnings_that_tls_settles(cluster: Cluster) -> None:
    checked = cluster.manage("check", "--deploy")
    output = checked.stdout + checked.stderr
    assert checked.returncode == 0, output
    assert set(re.findall(r"\((\w+\.W\d+)\)", output)) <= TLS_ONLY_WARNINGS, output


def test_a_game_played_on_one_worker_is_followed_on_another(cluster: Cluster) -> None:
    (token,) = create_players(cluster.env, 1)
    web, ws = cluster.of_kind("web")[0], cluster.of_kind("ws")[0]
    state = new_game(web, token)
    with watch(ws, state["id"]) as socket:
        for _ in range(3):
            state = play(web, token, state)
            push = json.loads(socket.recv(timeout=TIMEOUT))
            assert (push["t"], push["v"]) == ("move", state["version"])
            assert push["d"]["state"]["columns"] == state["columns"]


def test_pushes_cross_workers_on_either_redis_shard_and_each_shard_holds_its_groups(
    cluster: Cluster,
) -> None:
    """The layer is sharded over two redis-servers: a game's feed lives on the shard its group
    name hashes to (channels_redis's own hash), and pushes reach watchers on either."""
    urls = cluster.env["REDIS_URL"].split(",")
    assert len(urls) == 2, urls
    ring = RedisChannelLayer(hosts=urls)  # only its hash: it never connects
    (token,) = create_players(cluster.env, 1)
    web, ws = cluster.of_kind("web")[0], cluster.of_kind("ws")[0]
    on_shard: dict[int, dict[str, Any]] = {}
    for _ in range(40):  # each new game lands on either shard, one chance in two
        state = new_game(web, token)
        on_shard.setdefault(ring.consistent_hash(game_group(state["id"])), state)
        if len(on_shard) == 2:
            break
    assert set(on_shard) == {0, 1}
    shards = [redis.Redis.from_url(url) for url in urls]
    for index, state in sorted(on_shard.items()):
        group_key = f"{ring.prefix}:group:{game_group(state['id'])}"  # channels_redis's key
        with watch(ws, state["id"]) as socket:
            state = play(web, token, state)
            push = json.loads(socket.recv(timeout=TIMEOUT))
            assert (push["t"], push["v"]) == ("move", state["version"])
            holders = [shard.exists(group_key) for shard in shards]
        assert holders == [index == 0, index == 1], (group_key, holders)
    for shard in shards:
        shard.close()


class Load:
    """Players hammering the HTTP workers; each remembers every move the server acknowledged."""

    def __init__(self, cluster: Cluster, tokens: list[str]) -> None:
        self.cluster = cluster
        self.tokens = tokens
        self.acknowledged: list[tuple[int, int, str]] = []  # (game, version, move)
        self.per_worker: dict[int, int] = {}
        self.changed = threading.Condition()
        self.stop = threading.Event()

    def player(self, index: int) -> None:
        token = self.tokens[index]
        workers = self.cluster.of_kind("web")
        worker = workers[index % len(workers)]
        state = new_game(worker, token)
        while not self.stop.is_set():
            move = state["legal_moves"][index % len(state["legal_moves"])]
            body = {"move": move, "version": state["version"]}
            try:
                status, answer = send(worker.url, f"/api/v1/games/{state['id']}/moves", token, body)
            except CONNECTION_ERRORS:
                # Our worker died: carry on through another, from the game's stored state.
                worker = next(w for w in self.cluster.of_kind("web") if w is not worker)
                status, state = send(worker.url, f"/api/v1/games/{state['id']}", token)
                assert status == 200, state
                continue
            assert status == 200, answer
            state = answer
            with self.changed:
                self.acknowledged.append((state["id"], state["version"], move))
                self.per_worker[worker.port] = self.per_worker.get(worker.port, 0) + 1
                self.changed.notify_all()
            if len(state["legal_moves"]) < 2:
                state = new_game(worker, token)

    def wait_for(self, port: int, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.per_worker.get(port, 0) >= count, TIMEOUT)

    @contextmanager
    def running(self) -> Iterator[list[Future[None]]]:
        with ThreadPoolExecutor(len(self.tokens)) as pool:
            futures = [pool.submit(self.player, index) for index in range(len(self.tokens))]
            try:
                yield futures
            finally:
                self.stop.set()
        for future in futures:
            future.result()


def test_killing_a_worker_mid_load_loses_no_committed_move(cluster: Cluster) -> None:
    load = Load(cluster, create_players(cluster.env, 6))
    survivor, victim = cluster.of_kind("web")
    with load.running():
        load.wait_for(victim.port, 30)
        cluster.kill_worker(victim)  # SIGKILL, mid-request for some players
        before = load.per_worker.get(survivor.port, 0)
        load.wait_for(survivor.port, before + 60)
    cluster.start_worker("web")

    with database(cluster) as conn:
        logged = set(conn.execute("SELECT game_id, version, text FROM games_movelogentry"))
        games = conn.execute(
            "SELECT g.id, g.version, count(e.id), coalesce(max(e.seq), 0) FROM games_game g"
            " LEFT JOIN games_movelogentry e ON e.game_id = g.id GROUP BY g.id"
        ).fetchall()
    assert set(load.acknowledged) <= logged
    assert all(version == entries == last for _, version, entries, last in games), games
    verified = cluster.manage("verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_database_outage_answers_503_and_the_same_workers_recover(cluster: Cluster) -> None:
    (token,) = create_players(cluster.env, 1)
    state = new_game(cluster.workers[0], token)
    pids = [worker.child.pid for worker in cluster.workers]
    game_path = f"/api/v1/games/{state['id']}"
    cluster.stop_postgres()
    try:
        for worker in cluster.workers:
            move = {"move": "x", "version": 0}
            for path, body in ((game_path, None), (f"{game_path}/moves", move)):
                status, answer = send(worker.url, path, token, body)
                assert status == 503, answer
                assert answer["error"]["code"] == "database-unavailable"
            assert send(worker.url, "/readyz")[0] == 503
    finally:
        cluster.start_postgres()
    for worker in cluster.workers:
        wait_until_ready(worker)
        assert send(worker.url, game_path, token)[0] == 200
    state = play(cluster.workers[0], token, state)
    assert [worker.child.pid for worker in cluster.workers] == pids
    assert all(worker.child.process.poll() is None for worker in cluster.workers)


def wait_until_ready(worker: Worker) -> None:
    """Ask /readyz until it says 200.

    The pool reconnects in the background with exponential back-off, so after a long
    outage the first seconds may still answer 503.
    """
    wait_until(
        lambda: send(worker.url, "/readyz")[0] == 200,
        f"{worker.url} to recover",
        timeout=RECOVERY_TIMEOUT,
    )


def _lock_waiters(conn: psycopg.Connection[tuple[Any, ...]]) -> int:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
    ).fetchone()
    assert row is not None
    return int(row[0])


def test_sigterm_finishes_in_flight_requests_and_closes_websockets_with_1012(
    cluster: Cluster,
) -> None:
    """Moves held in flight by a row lock complete after SIGTERM; watchers see 'service restart'."""
    (token,) = create_players(cluster.env, 1)
    web, ws = cluster.of_kind("web")[0], cluster.of_kind("ws")[0]
    games = [new_game(web, token), new_game(web, token)]
    with database(cluster) as admin, database(cluster) as holder, ThreadPoolExecutor(2) as pool:
        with holder.transaction():
            ids = [game["id"] for game in games]
            holder.execute("SELECT id FROM games_game WHERE id = ANY(%s) FOR UPDATE", [ids])
            socket = watch(ws, games[1]["id"])
            moves = [
                pool.submit(call_move, worker, token, game)
                for worker, game in zip((web, ws), games, strict=True)
            ]
            wait_until(  # until both moves wait inside their transactions
                lambda: _lock_waiters(admin) >= 2,
                "the moves to reach the row lock",
                timeout=TIMEOUT,
            )
            for worker in (web, ws):
                worker.child.process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(timeout=TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # The lock is released: the in-flight moves finish on the stopping workers.
        assert [future.result(timeout=TIMEOUT)[0] for future in moves] == [200, 200]
    # uvicorn re-raises the SIGTERM it handled once it has shut down cleanly.
    for worker in (web, ws):
        assert worker.child.process.wait(timeout=TIMEOUT) == -signal.SIGTERM
    for worker in (web, ws):
        cluster.workers.remove(worker)
        cluster.start_worker(worker.kind)


def call_move(worker: Worker, token: str, game: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    body = {"move": game["legal_moves"][0], "version": game["version"]}
    return send(worker.url, f"/api/v1/games/{game['id']}/moves", token, body)
