"""`make run` stopped with Ctrl-C (SIGINT) or SIGTERM takes its embedded PostgreSQL down with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.support.servers import ROOT, free_port, wait_for_line

STOP_TIMEOUT = 30


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedded cluster for both signals (initdb once): the second run starts it again."""
    return tmp_path_factory.mktemp("make-run") / "data"


def postmaster_pid(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().split()[0])


def running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_embedded_database_stops_with_the_server(data_dir: Path, signum: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["YUKON_DATA_DIR"] = str(data_dir)
    command = [
        *(sys.executable, "-m", "uvicorn", "yukon_site.asgi:application"),  # as `make run`
        *("--host", "127.0.0.1", "--port", str(free_port()), "--lifespan", "off"),
    ]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    log: list[str] = []
    try:
        wait_for_line(server, "Uvicorn running on", log)
        postgres = postmaster_pid(data_dir / "postgres")
        assert running(postgres)
        server.send_signal(signum)
        server.wait(timeout=STOP_TIMEOUT)
        deadline = time.monotonic() + STOP_TIMEOUT
        while running(postgres):
            assert time.monotonic() < deadline, f"PostgreSQL {postgres} still runs:\n{''.join(log)}"
    finally:
        server.kill()
        server.wait()
