"""The two doors a player's write can take, driven alike from synchronous tests.

`open_door("rest", alice)` posts to the REST endpoints; `open_door("ws", alice)` sends the
same writes on the game's websocket (the whole ASGI stack, in-memory channel layer) and
waits for the answer with its id. Both return `(HTTP status, body)`: the state on success,
else the error object (without the websocket's `status` field, which is the first item).

The websockets live on one event loop in a thread of its own, shared by every door of
the session (the in-memory channel layer's queues belong to one loop). Its writes run in
that loop's worker threads, so a test writing through "ws" needs
`django_db(transaction=True)`: they must see the test's committed rows.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from django.contrib.auth.models import User

from accounts.models import ApiToken
from tests.realtime.wire import TIMEOUT, Socket
from tests.support.play import post, token_client

DOORS = ["rest", "ws"]
#: The websocket's write names and the REST endpoint of each.
REST_PATHS = {
    "move": "moves",
    "tap": "tap",
    "double-click": "double-click",
    "undo": "undo",
    "resign": "abandon",
}


class Door(Protocol):
    def write(self, game_id: int, kind: str, body: dict[str, Any]) -> tuple[int, Any]: ...


class RestDoor:
    def __init__(self, user: User) -> None:
        self.client = token_client(user)

    def write(self, game_id: int, kind: str, body: dict[str, Any]) -> tuple[int, Any]:
        response = post(self.client, f"/api/v1/games/{game_id}/{REST_PATHS[kind]}", body)
        data = response.json()
        return response.status_code, data if response.status_code < 400 else data["error"]


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _shared_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="socket-doors", daemon=True).start()
        return _loop


def on_socket_loop[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` on the doors' loop and wait for its result (from any thread)."""
    return asyncio.run_coroutine_threadsafe(coroutine, _shared_loop()).result(TIMEOUT * 2)


class SocketDoor:
    """One token, one socket per game (opened on the first write), answers matched by id."""

    ids = itertools.count(1)

    def __init__(self, user: User) -> None:
        _, self.token = ApiToken.issue(user, "socket door")
        self.sockets: dict[int, Socket] = {}

    def socket_path(self, game_id: int) -> str:
        return f"/ws/v1/games/{game_id}/?token={self.token}"

    def write(self, game_id: int, kind: str, body: dict[str, Any]) -> tuple[int, Any]:
        return on_socket_loop(self._write(game_id, kind, body))

    async def socket(self, game_id: int) -> Socket:
        if game_id not in self.sockets:
            socket = Socket(self.socket_path(game_id))
            await socket.__aenter__()
            await socket.expect("hello")
            await socket.expect("state")
            self.sockets[game_id] = socket
        return self.sockets[game_id]

    async def _write(self, game_id: int, kind: str, body: dict[str, Any]) -> tuple[int, Any]:
        socket = await self.socket(game_id)
        request_id = f"r{next(self.ids)}"
        await socket.send({"t": kind, "id": request_id, "d": body})
        while True:  # pushes of other writes may come first
            message = await socket.receive()
            if message.get("id") == request_id:
                break
        if message["t"] == "answer":
            return 200, message["d"]
        error = dict(message["d"])
        return int(error.pop("status")), error

    def close(self) -> None:
        async def close_all() -> None:
            for socket in self.sockets.values():
                await socket.__aexit__()

        on_socket_loop(close_all())
        self.sockets.clear()


@contextmanager
def open_door(kind: str, user: User) -> Iterator[Door]:
    if kind == "rest":
        yield RestDoor(user)
        return
    door = SocketDoor(user)
    try:
        yield door
    finally:
        door.close()
