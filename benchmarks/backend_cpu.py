"""Server CPU per move, whole: both doors side by side, summed over every server process.

    python -m benchmarks.backend_cpu [--games 4] [--moves 400] [--rounds 4]
        [--layout asgi [split]] [--profile DIR] [--json]

The capacity arithmetic in docs/operations.md needs what one move costs the service, which
throughput on a shared 2-core machine cannot give (it swings with whatever else runs) but
CPU time can. This starts a cluster per layout (`asgi`, the production one: 1 uvicorn
worker serving HTTP and websockets; `split`, the one before issue 40: 1 granian HTTP worker
and 1 uvicorn websocket worker; each with PgBouncer in transaction mode before PostgreSQL and
the layer on two redis-servers) and plays moves one after another through each door:

- `rest`: `POST /api/v1/games/<id>/moves` on the HTTP worker;
- `socket`: the `move` message on the owner's socket of the game (a websocket worker).

Each game is also watched by one anonymous socket on a websocket worker, and every move
waits for its push there: "a move" includes delivering it to one watcher. Rounds alternate
the layouts (all their clusters run at once) and the doors; each round reads every server
process tree's CPU time (user + system, psutil) before and after. What each tree burns idle
(timers, Redis's cron, PostgreSQL's background writers), measured over `--idle` seconds
first, is taken off for the round's wall time. The client's own CPU is not counted.
`total_cpu_ms_per_move` is the sum over the processes; with several layouts, the JSON's
top level is the first one's, and `layouts` holds them all.

With `--profile DIR`, after the measured rounds each door plays `--moves` more moves while
py-spy samples the workers (benchmarks/profiling.py), and the run prints where their
Python time went for each door; the collapsed stacks stay in DIR/<layout>/<door>/.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psutil
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from benchmarks import profiling
from benchmarks.harness import BENCH_ENV, MAX_MOVES_PER_GAME, emit_json, print_table
from scripts import cluster

TIMEOUT = 60
WARMUP_MOVES = 40
DOORS = ("socket", "rest")
#: Issue 40's targets: total server CPU per move, push to one watcher included.
TARGET_MS = {"socket": 2.0, "rest": 3.5}
#: HTTP (granian) and ASGI (uvicorn) workers of each layout.
LAYOUTS = {
    "split": (1, 1),  # granian for HTTP, uvicorn for websockets
    "asgi": (0, 1),  # one uvicorn worker serving both
}


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


def socket_to(worker: cluster.Worker, path: str, token: str | None = None) -> ClientConnection:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    socket = connect(
        f"{worker.ws_url}{path}",
        origin=Origin(worker.url),
        additional_headers=headers,
        open_timeout=TIMEOUT,
        legacy=True,  # kept open across moves, closed by `new_game` or the end of the run
    )
    for _ in range(2):  # hello, state
        socket.recv(timeout=TIMEOUT)
    return socket


class Game:
    """One player's game, moved through one door, and the socket that watches it."""

    def __init__(
        self, door: str, http_worker: cluster.Worker, ws: cluster.Worker, token: str, seed: int
    ) -> None:
        self.door = door
        self.http = http.client.HTTPConnection("127.0.0.1", http_worker.port, timeout=TIMEOUT)
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.ws = ws
        self.random = random.Random(seed)
        self.ids = itertools.count(1)
        self.watcher: ClientConnection | None = None
        self.owner: ClientConnection | None = None
        self.state = self.new_game()

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = self.request(path, body)
        except (ConnectionError, http.client.RemoteDisconnected):
            # uvicorn closes a connection idle past its keep-alive (5 s) while the other
            # door plays; an identical retry of a write is never applied twice.
            self.http.close()
            reply = self.request(path, body)
        answer = json.loads(reply.read())
        if reply.status not in (200, 201):
            raise RuntimeError(f"{path} answered {reply.status}: {answer}")
        return dict(answer)

    def request(self, path: str, body: dict[str, Any]) -> http.client.HTTPResponse:
        self.http.request("POST", path, json.dumps(body), self.headers)
        return self.http.getresponse()

    def new_game(self) -> dict[str, Any]:
        for socket in (self.watcher, self.owner):
            if socket is not None:
                socket.close()
        state = self.post("/api/v1/games", {})
        path = f"/ws/v1/games/{state['id']}/"
        self.watcher = socket_to(self.ws, path)
        if self.door == "socket":
            self.owner = socket_to(self.ws, path, self.token)
        return state

    def move(self) -> None:
        state = self.state
        over = state["status"] != "active" or len(state["legal_moves"]) < 2
        if over or state["move_count"] >= MAX_MOVES_PER_GAME:
            state = self.new_game()
        body = {"move": self.random.choice(state["legal_moves"]), "version": state["version"]}
        if self.owner is not None:
            self.state = self.send_on_socket(self.owner, body)
        else:
            self.state = self.post(f"/api/v1/games/{state['id']}/moves", body)
        assert self.watcher is not None
        while json.loads(self.watcher.recv(timeout=TIMEOUT)).get("v") != self.state["version"]:
            pass  # an unversioned message; the move's push follows

    def send_on_socket(self, socket: ClientConnection, body: dict[str, Any]) -> dict[str, Any]:
        request_id = str(next(self.ids))
        socket.send(json.dumps({"t": "move", "id": request_id, "d": body}))
        while True:
            reply = json.loads(socket.recv(timeout=TIMEOUT))
            if reply.get("id") == request_id:
                break
        if reply["t"] != "answer":
            raise RuntimeError(f"the socket refused a move: {reply}")
        return dict(reply["d"])

    def close(self) -> None:
        for socket in (self.watcher, self.owner):
            if socket is not None:
                socket.close()


def server_processes(running: cluster.Cluster) -> dict[str, int]:
    """Every server process tree by a readable name: workers, PostgreSQL, PgBouncer, Redis."""
    names = {"web": "HTTP worker (granian)", "ws": "ASGI worker (uvicorn)"}
    kinds: dict[str, int] = {}
    for kind, name in names.items():
        workers = running.of_kind(kind)
        for number, worker in enumerate(workers, start=1):
            kinds[f"{name} {number}" if len(workers) > 1 else name] = worker.child.pid
    assert running.postgres is not None and running.pgbouncer is not None
    kinds["PostgreSQL (all processes)"] = running.postgres.pid
    kinds["PgBouncer"] = running.pgbouncer.pid
    for number, child in enumerate(running.redis, start=1):
        kinds[f"Redis shard {number}"] = child.pid
    return kinds


class Bench:
    """One layout's cluster, its server processes and its games, measured round by round."""

    def __init__(self, layout: str, running: cluster.Cluster, games: int) -> None:
        self.layout = layout
        self.running = running
        ws = running.of_kind("ws")[0]
        http_worker = (running.of_kind("web") or [ws])[0]
        self.kinds = server_processes(running)
        tokens = iter(cluster.create_players(running.env, games * len(DOORS)))
        self.played = {
            door: [Game(door, http_worker, ws, next(tokens), seed) for seed in range(games)]
            for door in DOORS
        }
        self.idle_rate = dict.fromkeys(self.kinds, 0.0)
        self.spent = {door: dict.fromkeys(self.kinds, 0.0) for door in DOORS}
        self.wall = dict.fromkeys(DOORS, 0.0)

    def cpu(self) -> dict[str, float]:
        return {kind: tree_cpu_seconds(pid) for kind, pid in self.kinds.items()}

    def play(self, door: str, moves: int) -> None:
        games = self.played[door]
        for index in range(moves):
            games[index % len(games)].move()

    def measured_round(self, door: str, moves: int) -> None:
        before = self.cpu()
        started = time.perf_counter()
        self.play(door, moves)
        seconds = time.perf_counter() - started
        after = self.cpu()
        self.wall[door] += seconds
        for kind in self.kinds:
            used = after[kind] - before[kind] - self.idle_rate[kind] * seconds
            self.spent[door][kind] += used

    def figures(self, counted: int) -> dict[str, Any]:
        figures: dict[str, Any] = {}
        for door in DOORS:
            processes = {
                kind: max(0.0, cpu) / counted * 1000 for kind, cpu in self.spent[door].items()
            }
            figures[door] = {
                "total_cpu_ms_per_move": sum(processes.values()),
                "wall_ms_per_move": self.wall[door] / counted * 1000,
                "processes": processes,
                "target_ms": TARGET_MS[door],
            }
        return figures

    def close(self) -> None:
        for game in (game for door in DOORS for game in self.played[door]):
            game.close()


def measure(
    layouts: list[str], games: int, moves: int, rounds: int, idle: float, profile: Path | None
) -> dict[str, Any]:
    """Every layout's cluster at once, their rounds alternating (layout by layout, door by
    door), so that whatever else loads the machine weighs on each alike."""
    with ExitStack() as stack:
        benches = []
        for layout in layouts:
            http_workers, asgi_workers = LAYOUTS[layout]
            running = stack.enter_context(
                cluster.running_cluster(
                    web=http_workers, ws=asgi_workers, redis=2, pgbouncer=True, env=BENCH_ENV
                )
            )
            benches.append(Bench(layout, running, games))
            stack.callback(benches[-1].close)
        for bench in benches:
            for door in DOORS:
                bench.play(door, WARMUP_MOVES)
        quiet = [bench.cpu() for bench in benches]
        time.sleep(idle)  # the idle rate, measured while nothing is asked of the servers
        for bench, was in zip(benches, quiet, strict=True):
            now = bench.cpu()
            bench.idle_rate = {kind: (now[kind] - was[kind]) / idle for kind in bench.kinds}
        per_round = moves // rounds
        for _ in range(rounds):
            for bench in benches:
                for door in DOORS:
                    bench.measured_round(door, per_round)
        figures = {bench.layout: bench.figures(per_round * rounds) for bench in benches}
        if profile is not None:
            for bench in benches:
                workers = {"workers": [worker.child.pid for worker in bench.running.workers]}
                for door in DOORS:
                    where = profile / bench.layout / door
                    with profiling.recording(workers, where) as recording:
                        bench.play(door, moves)
                    summary = profiling.summary(recording.files, recording.seconds)
                    figures[bench.layout][door]["profile"] = summary.to_dict()
    return {"moves_per_door": per_round * rounds, "games": games, "layouts": figures}


def print_layout(layout: str, figures: dict[str, Any]) -> None:
    kinds = list(figures[DOORS[0]]["processes"])
    rows = [
        [kind, *(f"{figures[door]['processes'][kind]:.2f}" for door in DOORS)] for kind in kinds
    ]
    rows += [
        ["total", *(f"{figures[door]['total_cpu_ms_per_move']:.2f}" for door in DOORS)],
        ["target", *(f"<= {TARGET_MS[door]}" for door in DOORS)],
        ["wall ms per move", *(f"{figures[door]['wall_ms_per_move']:.1f}" for door in DOORS)],
    ]
    print(f"\nlayout {layout}")
    print_table(["process (CPU ms per move)", *DOORS], rows)
    for door in DOORS:
        if "profile" in figures[door]:
            found = figures[door]["profile"]
            print(f"\n{door}: the workers' Python time, {found['python_seconds']} s, self time")
            print_table(["area", "%"], list(found["areas"].items()))
            print_table(["function", "%"], list(found["functions"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per door, one watcher each")
    parser.add_argument("--moves", type=int, default=400, help="moves measured per door")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds per door")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measured first")
    parser.add_argument(
        "--layout",
        nargs="+",
        choices=sorted(LAYOUTS),
        default=["asgi"],
        help="one or more layouts, measured side by side in one run",
    )
    parser.add_argument("--profile", metavar="DIR", type=Path, help="py-spy the workers after")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    layouts = list(dict.fromkeys(args.layout))
    load_before = os.getloadavg()
    figures = measure(layouts, args.games, args.moves, max(1, args.rounds), args.idle, args.profile)
    load_after = os.getloadavg()
    print(
        f"{figures['moves_per_door']} moves per door and layout over {args.games} watched games "
        f"each, one at a time, in {args.rounds} rounds alternating the layouts and doors"
    )
    for layout in layouts:
        print_layout(layout, figures["layouts"][layout])
    first = figures["layouts"][layouts[0]]
    for other in layouts[1:]:
        ratios = [
            f"{door} {first[door]['total_cpu_ms_per_move'] / theirs:.2f}"
            for door in DOORS
            if (theirs := figures["layouts"][other][door]["total_cpu_ms_per_move"]) > 0
        ]
        print(f"\n{layouts[0]} / {other}, total CPU per move: {', '.join(ratios)}")
    print(
        "load average before / after: "
        f"{' '.join(f'{x:.2f}' for x in load_before)} / {' '.join(f'{x:.2f}' for x in load_after)}"
    )
    # The first layout's figures at the top level: `socket` and `rest`, each with its
    # `total_cpu_ms_per_move`.
    emit_json(
        args.json,
        {
            "layout": layouts[0],
            **first,
            **figures,
            "load_before": load_before,
            "load_after": load_after,
        },
    )


if __name__ == "__main__":
    main()
