"""The websocket Origin check: this server's own origin (scheme, host and port) or a trusted one."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing.websocket import WebsocketCommunicator

from tests.realtime.wire import TIMEOUT
from yukon_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

Headers = list[tuple[bytes, bytes]]


def accepted(headers: dict[str, str]) -> bool:
    """Whether a handshake to the lobby with these headers is let through."""
    encoded: Headers = [(name.encode(), value.encode()) for name, value in headers.items()]

    async def handshake() -> bool:
        communicator = WebsocketCommunicator(application, "/ws/v1/lobby/", headers=encoded)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        await communicator.disconnect()
        return bool(connected)

    return async_to_sync(handshake)()


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("LOCALHOST:8000", "http://localhost:8000"),
        ("127.0.0.1", "http://127.0.0.1"),
        ("127.0.0.1", "http://127.0.0.1:80"),
        ("[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_the_servers_own_origin_is_accepted(host: str, origin: str) -> None:
    assert accepted({"host": host, "origin": origin})


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:9999"),  # another port
        ("127.0.0.1:8000", "http://127.0.0.1"),
        ("127.0.0.1:8000", "https://127.0.0.1:8000"),  # another scheme
        ("127.0.0.1:8000", "http://localhost:8000"),  # another host
        ("evil.example:8000", "http://evil.example:8000"),  # a host not in ALLOWED_HOSTS
        ("127.0.0.1:8000", "null"),
        ("127.0.0.1:8000", "http://127.0.0.1:notaport"),
    ],
)
def test_any_other_origin_is_refused(host: str, origin: str) -> None:
    assert not accepted({"host": host, "origin": origin})


def test_a_client_without_an_origin_is_refused() -> None:
    assert not accepted({"host": "127.0.0.1:8000"})


def test_behind_a_tls_proxy_the_origin_is_https() -> None:
    secure = {"host": "localhost", "x-forwarded-proto": "https"}
    assert accepted({**secure, "origin": "https://localhost"})
    assert not accepted({**secure, "origin": "http://localhost"})


def test_csrf_trusted_origins_are_accepted_too(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://yukon.example", "https://*.games.example"]
    host = {"host": "127.0.0.1:8000"}
    assert accepted({**host, "origin": "https://yukon.example"})
    assert accepted({**host, "origin": "https://table.games.example"})
    assert not accepted({**host, "origin": "http://yukon.example"})
    assert not accepted({**host, "origin": "https://yukon.example:8443"})
    assert not accepted({**host, "origin": "https://games.example.evil"})
