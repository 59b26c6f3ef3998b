"""Start real server processes (ASGI workers, redis-server) for tests that cross process lines."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import psutil
from django.db import connection

from scripts.processes import Child
from scripts.processes import RunningServer as RunningServer  # re-exported for the tests
from scripts.processes import free_port as free_port

ROOT = Path(__file__).resolve().parents[2]


def test_database_url(name: str | None = None) -> str:
    """The URL of the database this test process uses, so child processes share it; or of
    the database `name` on the same server."""
    settings = connection.settings_dict
    host = settings["HOST"]
    name = name or settings["NAME"]
    if host.startswith("/"):
        return f"postgresql://{settings['USER']}@/{name}?host={host}"
    port = settings["PORT"] or "5432"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    return f"postgresql://{settings['USER']}{password}@{host}:{port}/{name}"


@contextmanager
def asgi_server(env: Mapping[str, str] | None = None) -> Iterator[RunningServer]:
    """A uvicorn worker on a free port, on the test database, stopped (SIGTERM) on exit."""
    port = free_port()
    command = [
        *(sys.executable, "-m", "uvicorn", "yukon_site.asgi:application"),
        *("--host", "127.0.0.1", "--port", str(port), "--lifespan", "off"),
        "--no-proxy-headers",  # the app reads X-Forwarded-For itself, from trusted proxies only
        *("--ws-per-message-deflate", "false"),  # as in production
    ]
    child_env = {**os.environ, "DATABASE_URL": test_database_url(), **(env or {})}
    with Child("uvicorn", command, cwd=ROOT, env=child_env) as child:
        child.wait_for("Uvicorn running on")
        yield RunningServer(child, port)


@contextmanager
def task_worker(
    worker_id: str, env: Mapping[str, str] | None = None, *, queues: str | None = None
) -> Iterator[Child]:
    """A real `manage.py worker` process on the test database, stopped (SIGTERM) on exit;
    `queues` replaces the worker's default queues (e.g. "odds"). It mines no puzzles (its
    CPU goes to what the test waits for) unless `env` sets `PUZZLE_STOCK`."""
    command = [
        *(sys.executable, "manage.py", "worker", "--no-startup-delay", "--interval", "0.2"),
        *("--worker-id", worker_id, "--verbosity", "1"),
        *(("--queue-name", queues) if queues else ()),
    ]
    child_env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "PUZZLE_STOCK": "0",
        **(env or {}),
    }
    with Child(f"worker {worker_id}", command, cwd=ROOT, env=child_env) as child:
        child.wait_for("Starting worker")
        yield child


def running(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def require_tool(name: str, how: str) -> str:
    """The path of a tool the test needs; fail loudly (never skip) when it is missing."""
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"this test needs `{name}` on PATH: {how}")
    return path
