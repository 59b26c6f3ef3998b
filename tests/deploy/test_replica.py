"""Public reads from a real PostgreSQL streaming replica (ops/replica.py), a player's own from
the primary: a server process with REPLICA_DATABASE_URL, the replica a pg_basebackup of the
test server. With replay paused the replica stands still, so which copy answered shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from accounts.models import ApiToken
from games.models import PlayerStats
from tests.support.http import send
from tests.support.play import winning_line
from tests.support.replica import Replica, streaming_replica
from tests.support.servers import RunningServer, asgi_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

#: A ceiling, never a pause: each wait ends when its condition holds.
TIMEOUT = 30
CODE, _ = winning_line()  # a known deal: its first legal move is there to play


@pytest.fixture(scope="module")
def replica(django_db_setup: None, django_db_blocker: Any) -> Iterator[Replica]:
    with django_db_blocker.unblock(), streaming_replica(connection.settings_dict) as replica:
        yield replica


@pytest.fixture(scope="module")
def server(replica: Replica) -> Iterator[RunningServer]:
    with asgi_server({"REPLICA_DATABASE_URL": replica.url, "LOG_LEVEL": "WARNING"}) as server:
        yield server


def caught_up(replica: Replica) -> None:
    """Wait until the replica has replayed everything the primary committed so far."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        (target,) = cursor.fetchone()
    with replica.connect() as conn:

        def replayed() -> bool:
            row = conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchone()
            return row is not None and bool(row[0])

        wait_until(replayed, f"the replica to replay up to {target}", timeout=TIMEOUT)


def winners(server: RunningServer) -> list[str]:
    status, board = send(server.url, "/api/v1/leaderboards/wins?rule=C")
    assert status == 200, board
    return [entry["player"] for entry in board["results"]]


def test_public_reads_come_from_the_replica_and_a_players_own_from_the_primary(
    server: RunningServer, replica: Replica, bob: User
) -> None:
    bob_token = ApiToken.issue(bob, "replica")[1]
    caught_up(replica)
    replica.pause_replay()
    try:
        PlayerStats.objects.create(player=bob, rule="C", games=1, wins=1)
        carol = User.objects.create_user("carol")
        carol_token = ApiToken.issue(carol, "replica")[1]
        # What everybody sees comes from the replica, which has neither yet.
        assert winners(server) == []
        assert send(server.url, "/api/v1/players/carol")[0] == 404
        assert send(server.url, "/api/v1/players/bob")[1]["stats"]["C"]["wins"] == 0
        # Your own profile, your token and the game you play come from the primary.
        assert send(server.url, "/api/v1/players/bob", bob_token)[1]["stats"]["C"]["wins"] == 1
        status, game = send(server.url, "/api/v1/games", carol_token, {"code": CODE})
        assert status == 201, game
        move = {"move": game["legal_moves"][0], "version": game["version"]}
        status, moved = send(server.url, f"/api/v1/games/{game['id']}/moves", carol_token, move)
        assert (status, moved.get("version")) == (200, 1), moved
        assert send(server.url, f"/api/v1/games/{game['id']}", carol_token)[1]["version"] == 1
    finally:
        replica.resume_replay()
    caught_up(replica)  # the primary's writes stream to the replica
    assert winners(server) == ["bob"]
    assert send(server.url, "/api/v1/players/carol")[0] == 200
