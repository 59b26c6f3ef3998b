"""A few worker threads for an event loop's database calls, each keeping its own connection.

Why: channels' `database_sync_to_async` closes old connections before and after every
call, and a call that hands its connection back to the pool takes it out again next
time with the pool's health check: two pool round trips and a `SELECT 1`-like check
per websocket move, more CPU than the move's own statements. These threads keep their
connection (and its prepared statements, ops/sql.py) from one call to the next.

A connection is health-checked only when it failed: a call during which Django saw a
database error (the server went away, `pg_terminate_backend`, a restart) hands its
connection back afterwards, so the pool checks it (and replaces it) before the next
call gets one. The failing call itself has answered with its error (the websocket
write: `database-unavailable`, 503); the next one runs on a fresh connection.

The threads are bounded (`size`), each holds one pooled connection for good: the
pool (DB_POOL_MAX) must be larger, so that the loop's other database calls still find
one. Calls run in the threads' own contexts, not the caller's: Django's connections
are context-local, and a caller's context would carry one connection from thread to
thread.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

from django.db import connection

T = TypeVar("T")

#: What a thread takes from the queue: a call and where its outcome goes, or None (stop).
Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"] | None


class KeptConnectionThreads:
    """`size` daemon threads started on first use; `close()` ends them and their connections."""

    def __init__(self, size: int, name: str) -> None:
        self.size = size
        self.name = name
        self.jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()

    async def run(self, function: Callable[[], T]) -> T:
        """`function()` in one of the threads, awaited from the running event loop."""
        self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self.jobs.put((function, loop, future))
        return await future

    def close(self) -> None:
        """Stop every thread once it is idle; each hands its connection back as it stops."""
        with self.lock:
            threads, self.threads = self.threads, []
            for _ in threads:
                self.jobs.put(None)
        for thread in threads:
            thread.join()

    def _start(self) -> None:
        if self.threads:
            return
        with self.lock:
            while len(self.threads) < self.size:
                thread = threading.Thread(
                    target=self._work, name=f"{self.name}-{len(self.threads) + 1}", daemon=True
                )
                thread.start()
                self.threads.append(thread)

    def _work(self) -> None:
        while (job := self.jobs.get()) is not None:
            function, loop, future = job
            try:
                outcome, failure = function(), None
            except BaseException as exc:  # handed to the awaiting caller, as run_in_executor
                outcome, failure = None, exc
            finally:
                if connection.errors_occurred:
                    _hand_back()
            with suppress(RuntimeError):  # a closed loop: nobody waits for this outcome
                loop.call_soon_threadsafe(_settle, future, outcome, failure)
        _hand_back()


def _hand_back() -> None:
    """Return this thread's connection to the pool (which checks it before lending it again)."""
    try:
        connection.close()
    except Exception:  # a dead connection may fail to close: it is gone either way
        connection.connection = None


def _settle(future: asyncio.Future[Any], outcome: Any, failure: BaseException | None) -> None:
    if future.cancelled():
        return
    if failure is not None:
        future.set_exception(failure)
    else:
        future.set_result(outcome)
