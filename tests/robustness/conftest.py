"""One real uvicorn process as `make run` starts it, on the test database and the real pool."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.servers import RunningServer, asgi_server

#: `make run`'s pool (10 connections); a short wait makes a dry pool answer 503 quickly.
SERVER_ENV = {
    "DB_POOL_TIMEOUT": "2",
    "LOG_LEVEL": "WARNING",
    "THROTTLE_REGISTER": "10000/min",
    "THROTTLE_LOGIN": "10000/min",
    "THROTTLE_MOVES": "100000/min",
}


@pytest.fixture(scope="package")
def server(django_db_setup: None) -> Iterator[RunningServer]:
    with asgi_server(SERVER_ENV) as running:
        yield running
