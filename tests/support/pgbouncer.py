"""A real pgbouncer running the shipped deploy/pgbouncer/pgbouncer.ini (`scripts.pgbouncer`),
aimed at the test server with one PostgreSQL connection per pool, so every client's
transactions take turns on the same backend: whatever one session leaves on a backend (a
prepared statement, a cursor), the next one meets."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from scripts.pgbouncer import running_pgbouncer


@dataclass
class PgBouncer:
    port: int
    user: str
    database: str

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{self.database}"


@contextmanager
def pgbouncer(primary: Mapping[str, Any]) -> Iterator[PgBouncer]:
    """pgbouncer in front of the server `primary` (a Django settings dict) names."""
    db_user = primary["USER"] or "postgres"
    pg_port = int(primary["PORT"] or 5432)
    with running_pgbouncer(primary["HOST"], pg_port, db_user, pool_size=1) as (port, _):
        yield PgBouncer(port, db_user, primary["NAME"])
