"""Two guards between the ASGI server and Django, each closing one way to leak a pool connection.

Both were behind issue 13 (the pool ran dry after a minute of fast clicking):
a connection was checked out on a request's thread and nothing gave it back;
the thread ended, the connection object was garbage-collected (PostgreSQL saw
the backend go) and the psycopg pool counted it as in use forever. Ten of
those and every request waited for a connection that never came.

`FreshContext`: uvicorn can start the next request of a keep-alive connection
inside the context of the request before it (CPython issue 140947: a
transport that paused reading and resumed it from a task reads on in that
task's context). The new request then inherits asgiref's thread-sensitive
context, Django's per-request `ThreadSensitiveContext` does nothing, and two
requests share one request thread, which the first one shuts down when it
ends. The second request's view opens its connection on that thread; its
`request_finished` (which gives connections back) runs on a new thread that
holds none.

`RunToCompletion`: on `http.disconnect` Django's ASGIHandler cancels the
request task. Sync middleware and views cannot be cancelled (they run on the
request's thread), and asgiref has a window it cannot cover: when the cancel
lands after a sync middleware's thread scheduled the rest of the chain with
`async_to_sync` but before that task started, the task is never cancelled.
The handler sends `request_finished` at once, before the orphaned rest of the
chain opens its connection, which nothing then returns. So a disconnect is
passed on only while the request is being read (Django then gives up before
any view or database work); once the body is complete, `receive()` waits until
the request is over. The request runs to its end as under WSGI, its answer
goes nowhere, and `request_finished` follows all its work: a move that was
sent is applied or refused, never cut in the middle. (A streaming response
would now run until it ends; the service has none.)
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Application = Any


class FreshContext:
    """ASGI middleware: every connection's call runs in an empty contextvars context."""

    def __init__(self, app: Application) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        call = self.app(scope, receive, send)
        # Awaiting the task passes a cancellation of ours on to it.
        await asyncio.get_running_loop().create_task(call, context=contextvars.Context())


class RunToCompletion:
    """ASGI middleware: once an HTTP request's body is in, hide `http.disconnect` from the app."""

    def __init__(self, app: Application) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body_complete = False
        finished = asyncio.Event()

        async def receive_until_finished() -> Message:
            nonlocal body_complete
            if body_complete:
                await finished.wait()
            message: Message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                body_complete = True
            return message

        try:
            await self.app(scope, receive_until_finished, send)
        finally:
            finished.set()
