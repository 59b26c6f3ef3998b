"""CPU per move of every process kind: HTTP worker, websocket worker, PostgreSQL, each Redis shard.

    python -m benchmarks.backend_cpu [--games 8] [--moves 400] [--json]

The capacity arithmetic in docs/operations.md needs what one move costs each kind of
process, which throughput on a shared 2-core machine cannot give (it swings with
whatever else runs) but CPU time can. This starts a cluster (1 granian HTTP worker,
1 uvicorn websocket worker, PostgreSQL, the layer on two redis-servers), watches each
of `--games` games from one websocket, plays `--moves` moves one after another over
HTTP, waits for each push, and reads every process tree's CPU time (user + system,
psutil) before and after. What each tree burns idle (timers, Redis's cron, PostgreSQL's
background writers), measured over `--idle` seconds first, is taken off for the run's
wall time. PostgreSQL counts all its processes; the client's own CPU is not counted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import time
from typing import Any

import psutil
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from benchmarks.harness import BENCH_ENV, MAX_MOVES_PER_GAME, emit_json, print_table
from scripts import cluster

TIMEOUT = 60
WARMUP_MOVES = 40


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and all its descendants (those alive now)."""
    root = psutil.Process(pid)
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


class Game:
    """One player's game over HTTP, and the websocket that watches it."""

    def __init__(self, web: cluster.Worker, ws: cluster.Worker, token: str, seed: int) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", web.port, timeout=TIMEOUT)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.ws = ws
        self.random = random.Random(seed)
        self.watcher: ClientConnection | None = None
        self.state = self.new_game()

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        self.http.request("POST", path, json.dumps(body), self.headers)
        reply = self.http.getresponse()
        answer = json.loads(reply.read())
        if reply.status not in (200, 201):
            raise RuntimeError(f"{path} answered {reply.status}: {answer}")
        return dict(answer)

    def new_game(self) -> dict[str, Any]:
        if self.watcher is not None:
            self.watcher.close()
        state = self.post("/api/v1/games", {})
        self.watcher = connect(
            f"{self.ws.ws_url}/ws/v1/games/{state['id']}/",
            origin=Origin(self.ws.url),
            open_timeout=TIMEOUT,
            legacy=True,  # kept open across moves, closed by `new_game` or the end of the run
        )
        for _ in range(2):  # hello, state
            self.watcher.recv(timeout=TIMEOUT)
        return state

    def move(self) -> None:
        state = self.state
        over = state["status"] != "active" or len(state["legal_moves"]) < 2
        if over or state["move_count"] >= MAX_MOVES_PER_GAME:
            state = self.new_game()
        body = {"move": self.random.choice(state["legal_moves"]), "version": state["version"]}
        self.state = self.post(f"/api/v1/games/{state['id']}/moves", body)
        assert self.watcher is not None
        while json.loads(self.watcher.recv(timeout=TIMEOUT)).get("v") != self.state["version"]:
            pass  # a lobby-style unversioned message; the move's push follows


def measure(games: int, moves: int, idle: float) -> dict[str, Any]:
    with cluster.running_cluster(web=1, ws=1, redis=2, env=BENCH_ENV) as running:
        web, ws = running.of_kind("web")[0], running.of_kind("ws")[0]
        assert running.postgres is not None
        kinds = {
            "HTTP worker (granian, 4 threads)": web.child.pid,
            "websocket worker (uvicorn)": ws.child.pid,
            "PostgreSQL (all processes)": running.postgres.pid,
            **{f"Redis shard {n}": child.pid for n, child in enumerate(running.redis, start=1)},
        }
        tokens = cluster.create_players(running.env, games)
        played = [Game(web, ws, token, seed) for seed, token in enumerate(tokens)]
        for index in range(WARMUP_MOVES):
            played[index % games].move()
        quiet = {kind: tree_cpu_seconds(pid) for kind, pid in kinds.items()}
        time.sleep(idle)  # the idle rate, measured while nothing is asked of the servers
        before = {kind: tree_cpu_seconds(pid) for kind, pid in kinds.items()}
        idle_rate = {kind: (before[kind] - quiet[kind]) / idle for kind in kinds}
        started = time.perf_counter()
        for index in range(moves):
            played[index % games].move()
        wall = time.perf_counter() - started
        after = {kind: tree_cpu_seconds(pid) for kind, pid in kinds.items()}
        for game in played:
            if game.watcher is not None:
                game.watcher.close()
    per_move = {
        kind: max(0.0, after[kind] - before[kind] - idle_rate[kind] * wall) / moves * 1000
        for kind in kinds
    }
    return {"moves": moves, "games": games, "wall_ms_per_move": wall / moves * 1000, **per_move}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games, one watcher each")
    parser.add_argument("--moves", type=int, default=400, help="moves measured")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measured first")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    load_before = os.getloadavg()
    figures = measure(args.games, args.moves, args.idle)
    load_after = os.getloadavg()
    rows = [
        (kind, f"{ms:.2f}", f"{1000 / ms:.0f}" if ms > 0 else "-")
        for kind, ms in figures.items()
        if kind not in {"moves", "games", "wall_ms_per_move"}
    ]
    print(
        f"{figures['moves']} moves over {figures['games']} watched games, one at a time; "
        f"wall {figures['wall_ms_per_move']:.1f} ms per move"
    )
    print_table(["process", "CPU ms per move", "moves/s per core"], rows)
    print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f}")
    emit_json(args.json, {**figures, "load_before": load_before, "load_after": load_after})


if __name__ == "__main__":
    main()
