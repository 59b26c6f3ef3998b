"""HTTP in the ASGI worker (ops/asgi.py, `ThreadedWsgi`): the request read on the loop, the
whole WSGI request on one thread of the pool, the answer sent whole; a client gone before
its request was read runs nothing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ops.asgi import ThreadedWsgi

SCOPE = {
    "type": "http",
    "method": "POST",
    "path": "/echo",
    "query_string": b"a=1",
    "http_version": "1.1",
    "headers": [(b"content-type", b"text/plain"), (b"x-test", b"yes")],
    "client": ("127.0.0.9", 5000),
    "server": ("127.0.0.1", 8000),
}


class Echo:
    """A WSGI application noting the thread it ran on and whether its answer was closed."""

    def __init__(self) -> None:
        self.calls = 0
        self.threads: set[str] = set()
        self.closed_on: str | None = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        self.calls += 1
        self.threads.add(threading.current_thread().name)
        body = environ["wsgi.input"].read()
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Seen", "ok")])
        seen = f"{environ['REMOTE_ADDR']} {environ['QUERY_STRING']} {environ['HTTP_X_TEST']} "
        return self.answer([seen.encode(), body])

    def answer(self, parts: list[bytes]) -> Iterator[bytes]:
        try:
            yield from parts
        finally:
            self.closed_on = threading.current_thread().name


def serve(app: ThreadedWsgi, incoming: list[dict[str, Any]]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def run() -> None:
        messages = iter(incoming)

        async def receive() -> dict[str, Any]:
            return next(messages)

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(dict(SCOPE), receive, send)

    asyncio.run(run())
    return sent


def test_a_request_runs_whole_on_one_pool_thread_and_its_answer_goes_out_whole() -> None:
    echo = Echo()
    sent = serve(
        ThreadedWsgi(echo, threads=2),
        [
            {"type": "http.request", "body": b"10D", "more_body": True},
            {"type": "http.request", "body": b">3"},
        ],
    )
    start, body = sent
    assert start["status"] == 201
    headers = dict(start["headers"])
    assert headers[b"x-seen"] == b"ok"
    assert headers[b"content-length"] == str(len(body["body"])).encode()
    assert body["body"] == b"127.0.0.9 a=1 yes 10D>3"
    assert not body.get("more_body", False)
    (thread,) = echo.threads
    assert thread.startswith("http") and echo.closed_on == thread  # request_finished there


def test_a_client_gone_before_its_request_was_read_runs_nothing() -> None:
    echo = Echo()
    sent = serve(
        ThreadedWsgi(echo, threads=1),
        [{"type": "http.request", "body": b"10", "more_body": True}, {"type": "http.disconnect"}],
    )
    assert sent == [] and echo.calls == 0


@pytest.mark.django_db
def test_the_service_answers_http_through_it() -> None:
    from yukon_site.asgi import application

    sent: list[dict[str, Any]] = []

    async def run() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b""}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {**SCOPE, "method": "GET", "path": "/healthz", "query_string": b"", "headers": []}
        await application(scope, receive, send)

    asyncio.run(run())
    assert sent[0]["status"] == 200 and b"ok" in sent[1]["body"]
