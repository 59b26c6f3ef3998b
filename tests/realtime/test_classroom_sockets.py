"""A school behind one address: anonymous sockets are counted per browser (its session, else
its CSRF cookie), under a far higher ceiling per address, against a real uvicorn worker.

The 31st anonymous socket from one address was closed 4429 whoever opened it, so a class
watching games from one network saw the lobby as empty and looped reconnecting.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from api.realtime.consumers import CLOSE_TOO_MANY
from tests.support.servers import RunningServer, asgi_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

PER_BROWSER = 3
PER_ADDRESS = 7
TIMEOUT = 30


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[RunningServer]:
    env = {
        "WS_MAX_SOCKETS_PER_CLIENT": str(PER_BROWSER),
        "WS_MAX_SOCKETS_PER_ADDRESS": str(PER_ADDRESS),
    }
    with asgi_server(env) as running:
        yield running


def open_count(server: RunningServer) -> int:
    with urllib.request.urlopen(f"{server.url}/healthz/sockets", timeout=TIMEOUT) as reply:
        return int(json.loads(reply.read())["open"])


def lobby(server: RunningServer, cookie: str | None = None) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else None
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/v1/lobby/",
        origin=Origin(server.url),
        additional_headers=headers,
        open_timeout=TIMEOUT,
    )


def browser(number: int) -> str:
    """The cookie of a browser that loaded the app (`ensure_csrf_cookie` on the shell)."""
    return f"csrftoken={'b' * 30}{number:02d}"


def listens(feed: ClientConnection) -> bool:
    message: dict[str, Any] = json.loads(feed.recv(timeout=TIMEOUT))
    return bool(message["t"] == "lobby")


def refused(feed: ClientConnection) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            feed.recv(timeout=TIMEOUT)
    received = closed.value.rcvd
    assert received is not None, "closed without a close frame"
    return received.code, received.reason


def test_browsers_behind_one_address_each_get_their_own_sockets(server: RunningServer) -> None:
    baseline = open_count(server)
    with ExitStack() as stack:
        feeds: list[Any] = []
        for number in range(2):
            for _ in range(PER_BROWSER):
                feeds.append(stack.enter_context(lobby(server, browser(number))))
        assert all(listens(feed) for feed in feeds)  # 6 from one address, 3 per browser
        with lobby(server, browser(0)) as fourth_of_one_browser:
            assert refused(fourth_of_one_browser) == (CLOSE_TOO_MANY, "too-many-sockets")
        seventh = stack.enter_context(lobby(server, browser(2)))
        assert listens(seventh)
        with lobby(server, browser(3)) as over_the_ceiling:
            assert refused(over_the_ceiling) == (CLOSE_TOO_MANY, "too-many-sockets")
    wait_until(lambda: open_count(server) == baseline, "the sockets to close")


def test_a_client_without_cookies_is_one_client_of_its_address(server: RunningServer) -> None:
    """A script sends no cookie: all of its address's cookieless sockets are one client."""
    with ExitStack() as stack:
        for _ in range(PER_BROWSER):
            assert listens(stack.enter_context(lobby(server)))
        with lobby(server) as one_more:
            assert refused(one_more) == (CLOSE_TOO_MANY, "too-many-sockets")
        assert listens(stack.enter_context(lobby(server, browser(9))))
