"""Start real server processes (ASGI workers, redis-server) for tests that cross process lines."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_SECONDS = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_database_url() -> str:
    """The URL of the database this test process uses, so child processes share it."""
    settings = connection.settings_dict
    host = settings["HOST"]
    if host.startswith("/"):
        return f"postgresql://{settings['USER']}@/{settings['NAME']}?host={host}"
    port = settings["PORT"] or "5432"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    return f"postgresql://{settings['USER']}{password}@{host}:{port}/{settings['NAME']}"


@dataclass
class RunningServer:
    process: subprocess.Popen[str]
    port: int
    log: list[str]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def wait_for_line(process: subprocess.Popen[str], marker: str, log: list[str]) -> None:
    """Read the child's output until it prints `marker` (the server's own 'ready' line).

    Then keep draining it into `log` from a thread: a full pipe would block the child.
    """
    assert process.stdout is not None
    deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
    for line in process.stdout:
        log.append(line)
        if marker in line:
            threading.Thread(target=log.extend, args=(process.stdout,), daemon=True).start()
            return
        if time.monotonic() > deadline:
            break
    process.kill()
    raise RuntimeError(f"server did not print {marker!r}; output:\n{''.join(log)}")


@contextmanager
def asgi_server(env: Mapping[str, str] | None = None) -> Iterator[RunningServer]:
    """A uvicorn worker on a free port, on the test database, stopped (SIGTERM) on exit."""
    port = free_port()
    child_env = {**os.environ, "DATABASE_URL": test_database_url(), **(env or {})}
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "yukon_site.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--lifespan",
        "off",
        "--no-proxy-headers",  # the app reads X-Forwarded-For itself, from trusted proxies only
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=child_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log: list[str] = []
    try:
        wait_for_line(process, "Uvicorn running on", log)
        yield RunningServer(process, port, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def require_tool(name: str, how: str) -> str:
    """The path of a tool the test needs; fail loudly (never skip) when it is missing."""
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"this test needs `{name}` on PATH: {how}")
    return path
