"""One real server process, a task worker and the redis-server between them, for the client
tests of this package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.redis import redis_server
from tests.support.servers import RunningServer, asgi_server, task_worker


@pytest.fixture(scope="package")
def server(django_db_setup: None) -> Iterator[RunningServer]:
    # Hints are solved on the worker and pushed through Redis to the server's sockets;
    # races start a second after everyone is ready.
    with redis_server() as redis:
        layer = {"REDIS_URL": redis.url}
        with (
            asgi_server({**layer, "RACE_COUNTDOWN_SECONDS": "1"}) as running,
            task_worker("client-tests", layer),
        ):
            yield running
