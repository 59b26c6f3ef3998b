"""`make run` stopped with Ctrl-C (SIGINT) or SIGTERM takes its embedded PostgreSQL down with it."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from scripts.processes import Child, free_port
from tests.support.servers import ROOT, running
from tests.support.waiting import wait_until

STOP_TIMEOUT = 30


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedded cluster for both signals (initdb once): the second run starts it again."""
    return tmp_path_factory.mktemp("make-run") / "data"


def postmaster_pid(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().split()[0])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_embedded_database_stops_with_the_server(data_dir: Path, signum: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["YUKON_DATA_DIR"] = str(data_dir)
    command = [
        *(sys.executable, "-m", "uvicorn", "yukon_site.asgi:application"),  # as `make run`
        *("--host", "127.0.0.1", "--port", str(free_port()), "--lifespan", "off"),
    ]
    with Child("make run", command, cwd=ROOT, env=env) as server:
        server.wait_for("Uvicorn running on")
        postgres = postmaster_pid(data_dir / "postgres")
        assert running(postgres)
        server.process.send_signal(signum)  # to the server alone: it must stop PostgreSQL itself
        server.process.wait(timeout=STOP_TIMEOUT)
        wait_until(
            lambda: not running(postgres),
            lambda: f"PostgreSQL {postgres} to stop:\n{server.output()}",
            timeout=STOP_TIMEOUT,
        )
