"""Flushing the test database while real task workers poll it.

A transactional test ends with `manage.py flush`, one TRUNCATE of every table. A task
worker beside a live server (browser tests, clients) polls the task tables in
transactions that touch two tables, so PostgreSQL can find the flush and a poll in a
deadlock and abort the flush. The poll then completes; the flush is simply run again.
"""

from __future__ import annotations

from typing import Any

import psycopg.errors
from django.core.management.base import CommandError
from django.core.management.commands import flush

ATTEMPTS = 5


def _deadlocked(error: BaseException) -> bool:
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, psycopg.errors.DeadlockDetected):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def retry_flush_after_deadlocks() -> None:
    """Make `flush` run again when PostgreSQL picked it as a deadlock's victim."""
    handle = flush.Command.handle

    def handle_retrying(self: flush.Command, **options: Any) -> None:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return handle(self, **options)
            except CommandError as error:
                if attempt == ATTEMPTS or not _deadlocked(error):
                    raise
        return None

    flush.Command.handle = handle_retrying  # type: ignore[method-assign]
