"""A bounded soak against a real uvicorn worker: slow readers, resets and floods beside normal
players and their spectators. Every spectator keeps getting every push; afterwards no socket's
consumer is left behind and the database is back to idle (no leaked racer ticking)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from accounts.models import ApiToken
from games.races.models import Racer
from tests.support.http import call
from tests.support.play import token_client, winning_line
from tests.support.races import running_race
from tests.support.rawsocket import SMALL_BUFFER, RawSocket
from tests.support.servers import RunningServer, asgi_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

SERVER_ENV = {
    "WS_OUTBOX_MESSAGES": "64",
    "WS_MAX_SOCKETS_PER_CLIENT": "200",
    "RACE_TICK_SECONDS": "1",
    "RACE_COUNTDOWN_SECONDS": "0",
}
PLAYERS = 3
MOVES = 20
TIMEOUT = 30
#: How long the database may stay busier than idle after the soak (a leak never settles).
SETTLE_SECONDS = 40


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[RunningServer]:
    with asgi_server(SERVER_ENV) as running:
        yield running


def open_sockets(server: RunningServer) -> int:
    with urllib.request.urlopen(f"{server.url}/healthz/sockets", timeout=TIMEOUT) as reply:
        return int(json.loads(reply.read())["open"])


def commits_per_second(seconds: float = 3.0) -> float:
    """The database's committed transactions per second over a window (every client's)."""

    def committed() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            )
            return int(cursor.fetchone()[0])

    before, started = committed(), time.monotonic()
    time.sleep(seconds)  # a measuring window, not a wait for a state
    return (committed() - before - 2) / (time.monotonic() - started)  # less our own two


def in_threads(*jobs: Callable[[], None]) -> None:
    errors: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        try:
            job()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_slow_readers_resets_and_floods_beside_players(
    server: RunningServer, alice: User, bob: User, settings: Any
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    code, line = winning_line()
    room = running_race(token_client(alice), token_client(bob))
    racer_token = ApiToken.issue(alice, "racer")[1]
    players = [User.objects.create_user(f"player{i}") for i in range(PLAYERS)]
    tokens = [ApiToken.issue(player, "soak")[1] for player in players]
    games = [call(server.url, "/api/v1/games", token, {"code": code})["id"] for token in tokens]
    idle = commits_per_second()
    baseline = open_sockets(server)
    worst: list[float] = []

    def play_and_watch(index: int) -> Callable[[], None]:
        def job() -> None:
            path = f"ws://127.0.0.1:{server.port}/ws/v1/games/{games[index]}/"
            with connect(path, origin=Origin(server.url), open_timeout=TIMEOUT) as spectator:
                spectator.recv(timeout=TIMEOUT)  # hello
                spectator.recv(timeout=TIMEOUT)  # state
                version = 0
                for move in line[:MOVES]:
                    body = {"move": move, "version": version}
                    sent = time.monotonic()
                    answer = call(server.url, f"/api/v1/games/{games[index]}/moves",
                                  tokens[index], body)  # fmt: skip
                    version = int(answer["version"])
                    pushed = json.loads(spectator.recv(timeout=TIMEOUT))
                    assert (pushed["t"], pushed["v"]) == ("move", version)
                    worst.append(time.monotonic() - sent)

        return job

    def slow_readers() -> None:
        slow = [RawSocket(server, "/ws/v1/lobby/", receive_buffer=SMALL_BUFFER) for _ in range(3)]
        for sock in slow:
            for _ in range(50):
                sock.send_text('{"t": "resync"}')
        wait_until(lambda: open_sockets(server) <= baseline + PLAYERS, "slow readers closed")
        for sock in slow:
            sock.close()

    def resets() -> None:
        for index in range(30):
            path = f"/ws/v1/races/{room}/?token={racer_token}" if index % 2 else "/ws/v1/lobby/"
            raw = RawSocket(server, path)
            for _ in range(3):
                raw.send_text('{"t": "resync"}')
            raw.reset()

    def floods() -> None:
        for _ in range(5):
            path = f"ws://127.0.0.1:{server.port}/ws/v1/lobby/"
            flood = connect(path, origin=Origin(server.url), open_timeout=TIMEOUT)
            with flood, pytest.raises(ConnectionClosed):
                for _ in range(1000):
                    flood.send('{"t": "ping"}')
                while True:
                    flood.recv(timeout=TIMEOUT)

    in_threads(*(play_and_watch(i) for i in range(PLAYERS)), slow_readers, resets, floods)

    assert len(worst) == PLAYERS * MOVES
    print(f"soak: slowest move-to-push {max(worst):.3f} s over {len(worst)} pushes")
    wait_until(lambda: open_sockets(server) == baseline, "every socket's consumer to end")
    present = Racer.objects.filter(race__room=room, player=alice, connected=True)
    wait_until(lambda: not present.exists(), "alice's reset race sockets to end her presence")
    # Back to idle: a leaked consumer's ticks go on for ever, while PostgreSQL's own work
    # after a burst of writes (autovacuum and autoanalyze count as commits too) passes.
    rates: list[float] = []

    def settled() -> bool:
        rates.append(commits_per_second())
        return rates[-1] <= idle + 1.0

    wait_until(
        settled,
        lambda: f"commits per second back to idle ({idle:.1f}): {rates}",
        timeout=SETTLE_SECONDS,
    )
