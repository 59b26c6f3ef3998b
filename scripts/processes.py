"""Child processes for the cluster, the test servers and the benchmarks, all started one way.

A thread drains each child's output (stdout and stderr together) into `lines`, and into a
log file when given one, so a full pipe never blocks the child. Readiness is the child's own
"ready" line, awaited with a deadline: a child that prints nothing, or exits first, fails
with its output instead of hanging the caller. Stopping is graceful first (SIGTERM, or the
signal given), then SIGKILL to the child's whole process group once the deadline passes.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

STARTUP_TIMEOUT_SECONDS = 60
STOP_TIMEOUT_SECONDS = 30
READER_JOIN_SECONDS = 5
OUTPUT_LINES = 40  # how much of a failed child's output its error quotes


class ChildNotReady(RuntimeError):
    """The child never printed its ready line: it stayed silent too long, or it exited."""


#: Where the kernel picks the local port of an outgoing connection (Linux's default range
#: when /proc does not say).
EPHEMERAL_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
DEFAULT_EPHEMERAL_RANGE = (32768, 60999)
#: The lowest port handed to our servers: above the well-known and most registered services.
LOWEST_LISTEN_PORT = 10000
_handed_out: set[int] = set()


def ephemeral_port_range() -> tuple[int, int]:
    try:
        low, high = EPHEMERAL_RANGE_FILE.read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return DEFAULT_EPHEMERAL_RANGE


def listen_ports() -> range:
    """The ports this process may hand out: those below the ephemeral range, and under
    pytest-xdist only this worker's slice of them, so that two workers never find the same
    port free and race to bind it."""
    low, _ = ephemeral_port_range()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not worker.startswith("gw") or workers < 2:
        return range(LOWEST_LISTEN_PORT, low)
    width = (low - LOWEST_LISTEN_PORT) // workers
    # A worker started in place of a crashed one gets the next number (gw2 of 2): it shares
    # a live worker's slice, as all ports were shared before workers had slices.
    start = LOWEST_LISTEN_PORT + int(worker[2:]) % workers * width
    return range(start, start + width)


def free_port() -> int:
    """A loopback port nobody listens on, for a server about to start.

    Never one of the kernel's ephemeral ports (an outgoing connection could take it before
    the server binds it), never one handed out before in this process (two servers
    started one after the other would otherwise race for it), and never one of another
    pytest-xdist worker's (`listen_ports`).
    """
    ports = listen_ports()
    candidates = [p for p in ports if p not in _handed_out]
    random.shuffle(candidates)
    for port in candidates:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise RuntimeError(f"no free port between {ports.start} and {ports.stop - 1}")


class Child:
    """A running child; `wait_for` blocks until a line appears; `stop` on leaving a `with`."""

    def __init__(
        self,
        name: str,
        command: list[str],
        *,
        log_path: Path | None = None,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        user: str | None = None,
        group: str | None = None,
    ) -> None:
        self.name = name
        self.command = command
        self.log_path = log_path
        self.lines: list[str] = []
        self._seen = threading.Condition()
        self._drained = False
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            user=user,
            group=group,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: a kill reaches its workers too
        )
        self._reader = threading.Thread(target=self._drain, name=f"{name}-output", daemon=True)
        self._reader.start()

    def __enter__(self) -> Child:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def _drain(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        log = self.log_path.open("a") if self.log_path is not None else None
        try:
            for line in stdout:
                if log is not None:
                    log.write(line)
                    log.flush()
                with self._seen:
                    self.lines.append(line)
                    self._seen.notify_all()
        finally:
            if log is not None:
                log.close()
            with self._seen:
                self._drained = True
                self._seen.notify_all()

    def _printed(self, marker: str) -> bool:
        return any(marker in line for line in self.lines)

    def output(self) -> str:
        """The last lines the child printed, for an error message."""
        with self._seen:
            return "".join(self.lines[-OUTPUT_LINES:])

    def wait_for(self, marker: str, timeout: float = STARTUP_TIMEOUT_SECONDS) -> None:
        """Block until the child prints `marker`; kill it and fail with its output otherwise.

        It fails at once when the child closes its output (it exited), and after `timeout`
        seconds when it stays alive without printing the line.
        """
        with self._seen:
            self._seen.wait_for(lambda: self._printed(marker) or self._drained, timeout)
            if self._printed(marker):
                return
            exited = self._drained
        self.kill()
        if exited:
            reason = f"exited (status {self.process.returncode}) before printing {marker!r}"
        else:
            reason = f"did not print {marker!r} within {timeout:g} s"
        raise ChildNotReady(f"{self.name} {reason}; last output:\n{self.output()}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, signum: int) -> None:
        """Signal the child's whole process group (the child and any workers it forked)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signum)

    def kill(self) -> None:
        """SIGKILL the whole process group: no cleanup, as in a crash or an OOM kill."""
        self.send(signal.SIGKILL)
        self.process.wait()

    def stop(self, signum: int = signal.SIGTERM, timeout: float = STOP_TIMEOUT_SECONDS) -> int:
        """Ask the child to stop (graceful for the servers) and wait; kill it if it hangs."""
        if self.process.poll() is None:
            self.process.send_signal(signum)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reader.join(timeout=READER_JOIN_SECONDS)
        return self.process.returncode


@dataclass
class RunningServer:
    """A child that serves HTTP (and websockets) on 127.0.0.1:`port`."""

    child: Child
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"
