"""Workers behind a real pgbouncer in transaction mode (deploy/pgbouncer/pgbouncer.ini): two
server processes with DB_TRANSACTION_POOLING take turns on one PostgreSQL connection."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection

from accounts.models import ApiToken
from tests.support.http import send
from tests.support.pgbouncer import PgBouncer, pgbouncer
from tests.support.play import winning_line
from tests.support.servers import RunningServer, asgi_server

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 4
MOVES = 8  # more than psycopg's default prepare threshold (5), had Django not turned it off
#: A known deal: each player's MOVES first legal moves are the same every run.
CODE, _ = winning_line()


@pytest.fixture(scope="module")
def bouncer(django_db_setup: None, django_db_blocker: Any) -> Iterator[PgBouncer]:
    with django_db_blocker.unblock(), pgbouncer(connection.settings_dict) as running:
        yield running


@pytest.fixture(scope="module")
def servers(bouncer: PgBouncer) -> Iterator[tuple[RunningServer, RunningServer]]:
    env = {
        "DATABASE_URL": bouncer.url,
        "DB_TRANSACTION_POOLING": "true",
        "LOG_LEVEL": "WARNING",
        "THROTTLE_MOVES": "100000/min",
    }
    with asgi_server(env) as one, asgi_server(env) as two:
        yield one, two


def test_players_on_two_workers_play_through_transaction_pooling(
    servers: tuple[RunningServer, RunningServer],
) -> None:
    tokens = [
        ApiToken.issue(User.objects.create_user(f"pooled-{n}"), "pgbouncer")[1]
        for n in range(PLAYERS)
    ]

    def player(index: int) -> list[int]:
        token = tokens[index]
        status, state = send(servers[index % 2].url, "/api/v1/games", token, {"code": CODE})
        assert status == 201, state
        versions = []
        for turn in range(MOVES):
            body = {"move": state["legal_moves"][0], "version": state["version"]}
            path = f"/api/v1/games/{state['id']}/moves"
            status, state = send(servers[(index + turn) % 2].url, path, token, body)
            assert status == 200, state
            versions.append(state["version"])
        status, stored = send(servers[index % 2].url, f"/api/v1/games/{state['id']}", token)
        assert status == 200, stored
        return [*versions, stored["version"]]

    with ThreadPoolExecutor(PLAYERS) as pool:
        played = list(pool.map(player, range(PLAYERS)))
    assert played == [[*range(1, MOVES + 1), MOVES]] * PLAYERS


def test_the_pool_really_shares_backends_so_prepared_statements_would_collide(
    bouncer: PgBouncer,
) -> None:
    """Why DB_TRANSACTION_POOLING keeps prepared statements off: two sessions that prepare
    (psycopg's `prepare_threshold=0`) name their first statement alike on the shared backend."""
    with psycopg.connect(bouncer.url, prepare_threshold=0) as first:
        first.execute("SELECT 1").fetchone()
        first.commit()
        second = psycopg.connect(bouncer.url, prepare_threshold=0)
        with second, pytest.raises(psycopg.errors.DuplicatePreparedStatement):
            second.execute("SELECT 1")
