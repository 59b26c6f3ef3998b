"""Websocket test helpers: a communicator on the real ASGI application, and secrecy checks."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.testing.websocket import WebsocketCommunicator

from tests.support.secrecy import face_down_cards, strings
from yukon_site.asgi import application

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")
#: A ceiling, never a pause: each wait ends when its message or answer comes; generous so a
#: machine whose cores are busy with other work does not fail a test that would pass.
TIMEOUT = 30
#: The deal most feed tests play (a fixed code: every run sees the same cards).
CODE = "YU1-C-AAAAAAB"


hidden_cards = sync_to_async(face_down_cards)


class Socket:
    """A websocket client of the whole ASGI stack (origin check, auth, routing)."""

    def __init__(self, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.communicator = WebsocketCommunicator(
            application, path, headers=[HOST, ORIGIN, *(headers or [])]
        )

    async def __aenter__(self) -> Socket:
        connected, _ = await self.communicator.connect(timeout=TIMEOUT)
        assert connected
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.communicator.disconnect()

    async def receive(self, hidden: set[str] | None = None) -> dict[str, Any]:
        """The next message; when `hidden` is given, it must name none of those cards."""
        message = await self.communicator.receive_json_from(timeout=TIMEOUT)
        if hidden is not None:
            leaked = hidden.intersection(strings(message))
            assert not leaked, f"face-down cards {leaked} in a {message.get('t')} message"
        return dict(message)

    async def expect(self, kind: str, hidden: set[str] | None = None) -> dict[str, Any]:
        message = await self.receive(hidden)
        assert message["t"] == kind, message
        return message

    async def send(self, content: Any) -> None:
        await self.communicator.send_json_to(content)

    async def closed_with(self) -> int:
        """Wait for the server to close the socket; its close code."""
        message = await self.communicator.receive_output(timeout=TIMEOUT)
        assert message["type"] == "websocket.close", message
        return int(message.get("code", 1000))
