"""Each socket's outgoing messages: a bounded queue and a sender task of its own.

The ASGI server's `send` waits while the client does not read (uvicorn blocks it until the
connection's write buffer drains). A push handed straight to `send` made the fan-out wait
for the slowest socket of a group, and one socket that never read stalled every live update
of its process. Here a push only joins the socket's queue; the socket's own task sends, and
waits alone. A queue over its bound means a client that cannot keep up: the consumer closes
that socket (its client resyncs when it comes back).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

Message = dict[str, Any]
Send = Callable[[Message], Awaitable[None]]


class Outbox:
    """A socket's ASGI messages (accept, sends, close), sent in order by one task."""

    def __init__(self, send: Send, limit: int) -> None:
        self._send = send
        self._limit = limit
        self._queue: deque[Message] = deque()
        self._ready = asyncio.Event()
        self.closing = False
        self.broken = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    def put(self, message: Message) -> bool:
        """Queue a message without waiting; False when the queue is full (the socket is too
        slow). After `close`, messages are dropped: the socket is going."""
        if self.closing:
            return True
        if len(self._queue) >= self._limit:
            return False
        self._queue.append(message)
        self._ready.set()
        return True

    def close(self, message: Message, *, drop_pending: bool = False) -> None:
        """The last message, a `websocket.close`: after the queued ones, or instead of them
        (a socket too slow for what is queued)."""
        if self.closing:
            return
        self.closing = True
        if drop_pending:
            self._queue.clear()
        self._queue.append(message)
        self._ready.set()

    async def finish(self, timeout: float) -> None:
        """Let the sender send what is queued, `timeout` seconds at most, then stop it (a
        client that never reads never unblocks it)."""
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        try:
            while True:
                while not self._queue:
                    self._ready.clear()
                    await self._ready.wait()
                message = self._queue.popleft()
                await self._send(message)
                if message["type"] == "websocket.close":
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # the connection is gone (uvicorn: ClientDisconnected)
            logger.debug("a socket's send failed; it is gone", exc_info=True)
            self.closing = True
            self._queue.clear()
            self.broken.set()
