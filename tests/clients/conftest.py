"""One real server process for the client tests of this package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.servers import RunningServer, asgi_server


@pytest.fixture(scope="package")
def server(django_db_setup: None) -> Iterator[RunningServer]:
    with asgi_server() as running:
        yield running
