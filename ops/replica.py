"""Reads that may come from a PostgreSQL streaming replica: opted into, never by default.

A replica lags its primary (milliseconds when healthy, more under load), so only code
that can show a slightly older picture asks for it: the public read-only views
(leaderboards, profiles, histories, replays) wrap their work in `replica_reads()`.
Everything else, above all the game a player is playing and whatever a player has just
written, reads the primary. So do authentication and throttling, which run before a
view's handler, and any read inside a transaction (it may depend on its own writes).
Without a "replica" database (REPLICA_DATABASE_URL unset) everything goes to "default".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

REPLICA_DB_ALIAS = "replica"

_replica_allowed: ContextVar[bool] = ContextVar("replica_allowed", default=False)


@contextmanager
def replica_reads(enabled: bool = True) -> Iterator[None]:
    """Within the block, reads outside a transaction may go to the replica (if `enabled`)."""
    token = _replica_allowed.set(enabled)
    try:
        yield
    finally:
        _replica_allowed.reset(token)


def reads_from_replica[**P, R](handler: Callable[P, R]) -> Callable[P, R]:
    """Run a whole read-only handler (a view's `get`) in `replica_reads()`."""

    @wraps(handler)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        with replica_reads():
            return handler(*args, **kwargs)

    return wrapped


def replica_configured() -> bool:
    return REPLICA_DB_ALIAS in connections.settings


class ReplicaRouter:
    """Django's database router (settings.DATABASE_ROUTERS) for the rule above."""

    def db_for_read(self, model: type[Any], **hints: Any) -> str:
        if (
            _replica_allowed.get()
            and replica_configured()
            and not connections[DEFAULT_DB_ALIAS].in_atomic_block
        ):
            return REPLICA_DB_ALIAS
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model: type[Any], **hints: Any) -> str:
        # Explicit: without it, saving a row read from the replica would be sent there.
        return DEFAULT_DB_ALIAS

    def allow_relation(self, first: Any, second: Any, **hints: Any) -> bool:
        return True  # one database, two copies of it

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS  # the replica follows the primary's schema by itself
