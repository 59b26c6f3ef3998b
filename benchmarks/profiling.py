"""Where the servers' CPU goes during a benchmark: py-spy samples every server process.

`recording` runs one `py-spy record` per process (sampling, without pausing it) for as
long as the block runs; `summary` reads the collapsed stacks back and shares the samples
out by the code they were taken in: self time per area (the event loop, the websocket
protocol, the channel layer, the database driver, ...) and the busiest functions.
Only samples of the thread holding the GIL count (`--gil`): a share is of the Python
work the process did, whatever else the machine was doing; waits (a socket, a lock, the
database's answer) and C code run without the GIL do not show. Worker processes a
server forks (granian's) are sampled too.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

#: Samples per second and process: enough for shares to within a percent in 20 s.
RATE = 200

#: Area of a sampled frame, by the first marker found in its file path (order matters;
#: py-spy names a file from its package on, e.g. `psycopg/connection.py`).
AREAS = [
    ("redis", "channel layer (channels_redis, redis)"),
    ("msgpack", "channel layer (channels_redis, redis)"),
    ("psycopg", "database driver (psycopg)"),
    ("django/db/", "Django ORM"),
    ("json/", "JSON"),
    ("games/engine/", "game engine"),
    ("games/", "game services"),
    ("api/realtime/", "our websocket code (api/realtime)"),
    ("api/", "our API views and serializers"),
    ("ops/", "our operations code (ops/: pool, logging, probes)"),
    ("rest_framework", "Django REST framework"),
    ("channels/", "Django Channels"),
    ("websockets", "HTTP/websocket server (uvicorn, websockets)"),
    ("uvicorn", "HTTP/websocket server (uvicorn, websockets)"),
    ("granian", "HTTP server (granian)"),
    ("asyncio/", "event loop (asyncio, selectors)"),
    ("selectors", "event loop (asyncio, selectors)"),
    ("threading", "threads (hand-offs between them)"),
    ("concurrent/", "threads (hand-offs between them)"),
    ("asgiref", "threads (hand-offs between them)"),
    ("django/", "Django (other)"),
    ("logging/", "logging"),
]


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise SystemExit("--profile needs py-spy: `make install` installs it into .venv")
    return found


@dataclass
class Recording:
    """The collapsed-stack files of one recording and how long it sampled."""

    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0


@contextmanager
def recording(processes: Mapping[str, list[int]], directory: Path) -> Iterator[Recording]:
    """Sample every process while the block runs (files named kind-pid.txt in `directory`)."""
    directory.mkdir(parents=True, exist_ok=True)
    binary = py_spy()
    samplers: list[subprocess.Popen[bytes]] = []
    record = Recording()
    for kind, pids in processes.items():
        for pid in pids:
            record.files.append(directory / f"{kind}-{pid}.txt")
            command = [binary, "record", "--pid", str(pid), "--rate", str(RATE), "--gil"]
            command += ["--subprocesses", "--nonblocking", "--format", "raw"]
            command += ["--output", str(record.files[-1])]
            samplers.append(
                subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            )
    started = time.perf_counter()
    try:
        yield record
    finally:
        record.seconds = time.perf_counter() - started
        for sampler in samplers:
            sampler.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        for sampler in samplers:
            sampler.wait(timeout=60)


def area_of(frame: str) -> str:
    """`frame` is py-spy's `function (path:line)`."""
    path = frame.rsplit("(", 1)[-1]
    return next((area for marker, area in AREAS if marker in path), "other")


@dataclass
class Profile:
    """Self-time shares of a set of processes, in percent of their samples."""

    #: Seconds of Python work sampled (all the processes together) in `seconds` of time.
    python_seconds: float
    seconds: float
    areas: list[tuple[str, float]]
    functions: list[tuple[str, float]]

    def to_dict(self) -> dict[str, object]:
        return {
            "python_seconds": self.python_seconds,
            "seconds": self.seconds,
            "areas": dict(self.areas),
            "functions": dict(self.functions),
        }


def summary(files: list[Path], seconds: float, top: int = 12) -> Profile:
    """Self time by area and by function (the `top` busiest), over `files`."""
    areas: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    for path in files:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            leaf = stack.rsplit(";", 1)[-1]
            areas[area_of(leaf)] += int(count)
            functions[leaf] += int(count)
    total = sum(areas.values())
    share = 100 / (total or 1)
    return Profile(
        round(total / RATE, 1),
        round(seconds, 1),
        [(area, round(n * share, 1)) for area, n in areas.most_common()],
        [(name, round(n * share, 1)) for name, n in functions.most_common(top)],
    )
