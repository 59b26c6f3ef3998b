"""What the load benchmarks share: a target (our own cluster or a running one), players, figures.

Players and their API tokens are created directly in the target's database
(registration is throttled and argon2 is slow on purpose), then everything else
goes through the HTTP API like any third-party client.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import psutil

from scripts import cluster

# The benchmarks measure the server, not its limits: lift the per-player move limit, the
# per-client socket cap (every simulated player connects from this one address) and the
# per-socket message rate (a mover sends its moves back to back on one socket).
BENCH_ENV = {
    "YUKON_BENCH_ENDPOINTS": "1",
    "THROTTLE_MOVES": "1000000/min",
    "WS_MAX_SOCKETS_PER_CLIENT": "100000",
    "WS_MESSAGES_PER_SECOND": "1000000",
    "WS_MESSAGE_BURST": "1000000",
    "LOG_LEVEL": "WARNING",
}
MAX_MOVES_PER_GAME = 200  # a long real game; then a fresh deal keeps the mix realistic


@dataclass
class Target:
    web: list[str]  # HTTP base URLs, used round-robin like a proxy would
    ws: list[str]  # websocket base URLs
    database_url: str
    description: str
    #: The servers' environment (their deal key above all), for processes started beside them.
    env: dict[str, str] = field(default_factory=dict)
    #: How the run shares the machine's cores ("not pinned" unless `--pin`).
    pinning: str = "not pinned"
    #: Our own cluster's server processes by kind (web, ws, worker); empty with --url.
    processes: dict[str, list[int]] = field(default_factory=dict)


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        action="append",
        default=[],
        help="HTTP base URL of a running server (repeat for several workers); "
        "default: start scripts.cluster for the run",
    )
    parser.add_argument("--ws-url", action="append", default=[], help="websocket base URL")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", ""),
        help="the running server's database, to create benchmark players (with --url)",
    )
    parser.add_argument("--web", type=int, default=2, help="HTTP workers of our own cluster")
    parser.add_argument("--ws", type=int, default=1, help="websocket workers of our own cluster")
    parser.add_argument("--web-server", choices=["granian", "uvicorn"], default="granian")
    parser.add_argument("--web-threads", type=int, default=4, help="threads per WSGI worker")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="load generator on the first CPU, every server process (workers, PostgreSQL, "
        "Redis) on the others: figures of the servers alone, not of both sharing cores",
    )


def pin_tree(pid: int, cpus: set[int]) -> int:
    """Pin a process, its children and every thread of them to `cpus`; how many processes.
    Later children and threads inherit it (PostgreSQL forks its backends from the pinned
    postmaster)."""
    root = psutil.Process(pid)
    processes = [root, *root.children(recursive=True)]
    for process in processes:
        for thread in process.threads():
            with contextlib.suppress(ProcessLookupError):  # a thread that just ended
                os.sched_setaffinity(thread.id, cpus)
    return len(processes)


#: The CPUs this process may use when it starts (before `pin` narrows them to one).
CPUS = sorted(os.sched_getaffinity(0))


def pin(server_pids: list[int]) -> str:
    """This process (the load generator) on the first CPU, the servers on the rest; a
    description."""
    cpus = CPUS
    if len(cpus) < 2:
        raise SystemExit("--pin needs two CPUs at least")
    mine, theirs = {cpus[0]}, set(cpus[1:])
    pinned = sum(pin_tree(pid, theirs) for pid in server_pids)
    pin_tree(os.getpid(), mine)
    return (
        f"load generator on CPU {cpus[0]}, {pinned} server processes "
        f"on CPU {','.join(map(str, sorted(theirs)))}"
    )


@contextmanager
def target_from(args: argparse.Namespace) -> Iterator[Target]:
    """The server under test: the one given by --url, or a fresh production cluster."""
    if args.url:
        if not args.database_url:
            raise SystemExit("--url needs --database-url (or DATABASE_URL) to create players")
        env = {**os.environ, "DATABASE_URL": args.database_url}
        yield Target(
            args.url, args.ws_url or [], args.database_url, f"running server {args.url}", env
        )
        return
    workers = int(getattr(args, "task_workers", 0))
    with cluster.running_cluster(
        web=args.web,
        ws=args.ws,
        workers=workers,
        web_server=args.web_server,
        web_threads=args.web_threads,
        env=BENCH_ENV,
    ) as running:
        # Without HTTP workers (`--web 0`), the uvicorn workers serve HTTP too: one kind.
        web = [worker.url for worker in running.of_kind("web") or running.of_kind("ws")]
        ws = [worker.ws_url for worker in running.of_kind("ws")]
        threads = f" ({args.web_threads} threads each)" if args.web_server == "granian" else ""
        http = f"{args.web} {args.web_server} HTTP worker(s){threads}"
        description = (
            f"scripts.cluster: {http if args.web else 'no HTTP worker'}, "
            f"{args.ws} uvicorn worker(s) (websockets{'' if args.web else ' and HTTP'}), "
            f"{workers} task worker(s), PostgreSQL 17 and Redis on loopback"
        )
        pinning = pin(running.server_pids()) if getattr(args, "pin", False) else "not pinned"
        processes: dict[str, list[int]] = {}
        for worker in running.workers:
            processes.setdefault(worker.kind, []).append(worker.child.process.pid)
        yield Target(
            web, ws, running.database_url, description, dict(running.env), pinning, processes
        )


def create_players(database_url: str, count: int) -> list[str]:
    """`count` fresh players with an API token each, in the target's database; raw tokens."""
    return cluster.create_players({**os.environ, "DATABASE_URL": database_url}, count)


class Player:
    """One API client playing its own games: random legal moves, a new deal when one ends."""

    def __init__(self, session: aiohttp.ClientSession, base: str, token: str, seed: int) -> None:
        self.session = session
        self.base = base
        self.headers = {"Authorization": f"Bearer {token}"}
        self.random = random.Random(seed)
        self.state: dict[str, Any] | None = None
        self.request_ids = 0

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.session.post(self.base + path, json=body, headers=self.headers) as reply:
            return reply.status, await reply.json(content_type=None)

    async def new_game(self) -> dict[str, Any]:
        status, state = await self.post("/api/v1/games", {})
        if status != 201:
            raise RuntimeError(f"starting a game answered {status}: {state}")
        self.state = state
        return state

    def needs_new_game(self) -> bool:
        state = self.state
        return (
            state is None
            or state["status"] != "active"
            or len(state["legal_moves"]) < 2
            or state["move_count"] >= MAX_MOVES_PER_GAME
        )

    async def write_on(
        self, socket: aiohttp.ClientWebSocketResponse, kind: str, body: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """A write on the game's websocket (docs/realtime.md): (REST's status, its body)."""
        self.request_ids += 1
        request_id = str(self.request_ids)
        await socket.send_str(json.dumps({"t": kind, "id": request_id, "d": body}))
        while True:
            frame = await socket.receive(timeout=30)
            if frame.type != aiohttp.WSMsgType.TEXT:
                raise aiohttp.ClientError(f"the game's websocket closed ({frame.type.name})")
            reply = json.loads(frame.data)
            if reply.get("id") == request_id:
                break
        if reply["t"] == "answer":
            return 200, reply["d"]
        return int(reply["d"]["status"]), {"error": reply["d"]}

    async def move(
        self, socket: aiohttp.ClientWebSocketResponse | None = None
    ) -> tuple[int, str, int]:
        """Play one legal move (over REST, or on `socket`, the game's websocket opened with
        this player's token); returns (HTTP status, move, version it produced or 0)."""
        if self.needs_new_game():
            await self.new_game()
        assert self.state is not None
        move = self.random.choice(self.state["legal_moves"])
        game_id, version = self.state["id"], self.state["version"]
        body = {"move": move, "version": version}
        if socket is None:
            status, body = await self.post(f"/api/v1/games/{game_id}/moves", body)
        else:
            status, body = await self.write_on(socket, "move", body)
        if status == 200:
            self.state = body
            return status, move, int(body["version"])
        return status, move, 0


@dataclass
class Figures:
    """Latencies (seconds) and errors of one measured window."""

    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    client_cpu: float = 0.0  # CPU seconds the load generator itself used in the window

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile(self, p: float) -> float:
        return percentile(self.latencies, p)

    def to_dict(self) -> dict[str, float | int]:
        return {
            "per_second": round(self.rate, 1),
            "p50_ms": round(self.percentile(50) * 1000, 2),
            "p99_ms": round(self.percentile(99) * 1000, 2),
            "errors": self.errors,
            "count": len(self.latencies),
            "client_cpu_share": round(self.client_cpu / self.seconds, 2),
        }


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


class Window:
    """A measured interval after a warm-up: only what completes inside it counts."""

    def __init__(self, warmup: float, duration: float) -> None:
        self.start = time.perf_counter() + warmup
        self.end = self.start + duration

    def running(self) -> bool:
        return time.perf_counter() < self.end

    def counts(self, finished_at: float) -> bool:
        return self.start <= finished_at < self.end


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]
    for line in (headers, ["-" * width for width in widths], *rows):
        print("  ".join(str(cell).rjust(width) for cell, width in zip(line, widths, strict=True)))


def emit_json(enabled: bool, figures: dict[str, Any]) -> None:
    if enabled:
        print(json.dumps(figures))
