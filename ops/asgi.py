"""How the ASGI worker runs Django's HTTP requests, and the guard every connection passes.

Issue 13 (the pool ran dry after a minute of fast clicking) came from this path:
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

`ThreadedWsgi` serves HTTP in the ASGI worker as a WSGI server would: the request's
body is read on the event loop, then one hand-off puts the whole of Django's request
(middleware, view, answer, `request_finished`) on one thread of a pool, and the answer
goes back to the loop to be sent. Django's ASGIHandler instead hopped between the loop
and threads three times a request (its sync middleware, then `async_to_sync` for the
async-capable ones inside, then `sync_to_async` for the view): those hops were a fifth of
a REST move's CPU in the worker (docs/performance.md, "One kind of worker"). It also had
two ways to leak a pool connection (issue 13), which one thread per request cannot:
a cancel that landed after a sync middleware scheduled the rest of the chain left the
rest orphaned, and `request_finished` came before the orphan's view opened its
connection. Here a disconnect is honoured only while the request is being read (no
view has run); once the body is complete the request runs to its end and its answer
goes nowhere: a move that was sent is applied or refused, never cut in the middle.
Answers are whole (the service streams none), sent as one body with its length.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.wsgi import WsgiToAsgiInstance

Scope = dict[str, Any]
Message = dict[str, Any]
Application = Any
Header = tuple[bytes, bytes]


class FreshContext:
    """ASGI middleware: every connection's call runs in an empty contextvars context."""

    def __init__(self, app: Application) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        call = self.app(scope, receive, send)
        # Awaiting the task passes a cancellation of ours on to it.
        await asyncio.get_running_loop().create_task(call, context=contextvars.Context())


class ThreadedWsgi:
    """ASGI application: HTTP requests served by a WSGI application on a pool of threads."""

    def __init__(self, app: Any, threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="http")

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        body = io.BytesIO()
        while True:
            message: Message = await receive()
            if message["type"] == "http.disconnect":
                return  # gone before its request was whole: nothing ran for it
            body.write(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body.seek(0)
        loop = asyncio.get_running_loop()
        # Not cancelled with this task: the thread runs the request to its end.
        status, headers, content = await loop.run_in_executor(
            self.executor, self.respond, scope, body
        )
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def respond(self, scope: Scope, body: io.BytesIO) -> tuple[int, list[Header], bytes]:
        """Run the WSGI application on this thread; its status, headers and whole body."""
        environ_of = WsgiToAsgiInstance(self.app)  # type: ignore[no-untyped-call]
        environ_of.scope = scope
        try:
            environ = environ_of.build_environ(scope, body)  # type: ignore[no-untyped-call]
        except ValueError:  # too many duplicate headers
            return 400, [(b"content-type", b"text/plain")], b"Bad Request"
        started: list[tuple[int, list[Header]]] = []

        def start_response(status: str, headers: list[tuple[str, str]], _: Any = None) -> Any:
            encoded = [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in headers]
            started[:] = [(int(status.split(" ", 1)[0]), encoded)]
            return lambda data: None  # the legacy `write`, which Django does not use

        answer = self.app(environ, start_response)
        try:
            content = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()  # Django's request_finished: connections go back to the pool
        status, headers = started[0]
        if not any(name == b"content-length" for name, _ in headers):
            headers.append((b"content-length", str(len(content)).encode()))
        return status, headers, content
