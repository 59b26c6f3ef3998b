"""Simulated players on the production topology, with watchers on websockets (issue 9, "Speed").

    python -m benchmarks.players --players 50 100 200 --duration 20 [--json]

Each player plays its own real games through the HTTP API (moves chosen from
the legal moves the server returned, a new deal when a game ends), thinking
`--think` seconds on average between moves, like a fast human. Each game is
followed by a watcher on a websocket worker; push latency runs from the move's
request being sent to the watcher receiving that version. An error is any
non-200 answer, a failed connection, or a push that never arrives.
A level holds when it has zero errors and both the move p99 and the push p99 are
under 100 ms; `push_vs_move` is the push p99 over the move p99 (target: 1.5 at most).

With `--pin`, the load generator runs on the first CPU and every server process
(workers, PostgreSQL, Redis, with their threads and children) on the others, so a
figure is the servers' alone; without it all share every core. The pinning is printed.
The last JSON line holds `levels`: every level of every run, each with `players`,
`moves_over`, `errors`, `move_p99_ms` and `push_p99_ms`.

With `--moves-over ws`, each player sends its moves on its game's websocket
(opened with its token on a websocket worker) instead of POSTing them; the watcher
is still a second, anonymous socket, so push latency is measured the same way.
`--moves-over rest ws` runs both in one session, one after the other, each on a
fresh cluster of the same number of processes: REST on `--web` HTTP and `--ws`
websocket workers, the websocket run on `--ws-topology` (default 1x2: one HTTP
worker, which only starts games, and two websocket workers taking the moves;
players are spread round-robin over the websocket workers). A last table puts
the runs side by side.

With `--profile DIR`, py-spy samples every HTTP and websocket worker through the
levels (without pausing them) and the run prints where their CPU went: self time by
area (event loop, websocket server, channel layer, database driver, our code) and the
busiest functions; the collapsed stacks stay in DIR for a flame graph.

With `--analysis`, the cluster gets one task worker and every level runs twice in the
same session: once with the worker idle, once with a backlog of finished games
(`seed_demo`) queued for post-game analysis, so the worker solves all through the
run; both tables are printed with the load averages seen at the end of each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks import profiling
from benchmarks.harness import (
    Figures,
    Player,
    Target,
    Window,
    add_target_arguments,
    create_players,
    emit_json,
    percentile,
    print_table,
    target_from,
)
from scripts.cluster import ROOT

P99_BOUND_MS = 100.0
PUSH_GRACE_SECONDS = 5.0


class Watched:
    """A player plus the websocket that follows its current game."""

    def __init__(self, player: Player, ws_base: str, http_base: str, moves_over: str) -> None:
        self.player = player
        self.ws_base = ws_base
        self.origin = http_base
        self.moves_over = moves_over
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.writer: aiohttp.ClientWebSocketResponse | None = None  # the player's own, for ws
        self.reader: asyncio.Task[None] | None = None
        self.sent: dict[tuple[int, int], float] = {}  # (game, version) -> request sent at
        self.pushes: list[float] = []
        self.pending: set[tuple[int, int]] = set()  # acknowledged, push not seen yet
        self.received: set[tuple[int, int]] = set()
        self.pushed = asyncio.Event()
        self.errors = 0

    async def follow(self, game_id: int) -> None:
        await self.close()
        self.socket = await self.player.session.ws_connect(
            f"{self.ws_base}/ws/v1/games/{game_id}/", origin=self.origin
        )
        await self.opened(self.socket)
        self.reader = asyncio.create_task(self.read(game_id, self.socket))
        if self.moves_over == "ws":
            self.writer = await self.player.session.ws_connect(
                f"{self.ws_base}/ws/v1/games/{game_id}/",
                origin=self.origin,
                headers=self.player.headers,
            )
            await self.opened(self.writer)

    @staticmethod
    async def opened(socket: aiohttp.ClientWebSocketResponse) -> None:
        for expected in ("hello", "state"):
            message = json.loads((await socket.receive(timeout=10)).data)
            if message["t"] != expected:
                raise RuntimeError(f"websocket opened with {message['t']}, not {expected}")

    async def read(self, game_id: int, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in socket:
            message = json.loads(frame.data)
            key = (game_id, message.get("v", -1))
            if message.get("t") == "move" and key in self.sent:
                self.pushes.append(time.perf_counter() - self.sent[key])
                self.received.add(key)
                self.pending.discard(key)
                self.pushed.set()

    async def drain(self, grace: float) -> None:
        """Wait (bounded) for the pushes of acknowledged moves still on their way."""
        deadline = time.perf_counter() + grace
        while self.pending and (left := deadline - time.perf_counter()) > 0:
            self.pushed.clear()
            try:
                await asyncio.wait_for(self.pushed.wait(), left)
            except TimeoutError:
                return

    async def close(self) -> None:
        if self.writer is not None:
            await self.writer.close()
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            await self.reader
        self.socket = self.reader = self.writer = None


async def play(watched: Watched, window: Window, think: float, figures: Figures) -> None:
    player = watched.player
    rng = random.Random(id(watched))
    await asyncio.sleep(rng.uniform(0, think))  # players arrive spread out, not in lockstep
    while window.running():
        try:
            if player.needs_new_game():
                state = await player.new_game()
                await watched.follow(state["id"])
            assert player.state is not None
            key = (player.state["id"], player.state["version"] + 1)
            watched.sent[key] = started = time.perf_counter()
            status, _, _ = await player.move(watched.writer)
            finished = time.perf_counter()
        except (aiohttp.ClientError, RuntimeError, TimeoutError):
            figures.errors += 1
            player.state = None
            continue
        if window.counts(finished):
            if status == 200:
                figures.latencies.append(finished - started)
                if key not in watched.received:
                    watched.pending.add(key)
            else:
                figures.errors += 1
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))  # the player thinks


async def level(target: Target, tokens: list[str], args: Any) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        watched = []
        for i, token in enumerate(tokens):
            http_base = target.web[i % len(target.web)]
            ws_worker = target.ws[i % len(target.ws)]
            origin = ws_worker.replace("ws://", "http://", 1)
            player = Player(session, http_base, token, seed=i)
            watched.append(Watched(player, ws_worker, origin, args.moves_over))
        window = Window(args.warmup, args.duration)
        moves = Figures(seconds=args.duration)
        cpu = time.process_time()
        await asyncio.gather(*(play(w, window, args.think, moves) for w in watched))
        moves.client_cpu = time.process_time() - cpu
        await asyncio.gather(*(w.drain(PUSH_GRACE_SECONDS) for w in watched))
        missed = sum(len(w.pending) for w in watched)
        for w in watched:
            await w.close()
    pushes = [latency for w in watched for latency in w.pushes]
    spread = [sum(w.ws_base == base for w in watched) for base in target.ws]
    figures = moves.to_dict()
    move_p99, push_p99 = moves.percentile(99) * 1000, percentile(pushes, 99) * 1000
    return {
        "players": len(tokens),
        "moves_over": args.moves_over,
        "players_per_ws_worker": spread,
        "per_second": figures["per_second"],
        "count": figures["count"],
        "client_cpu_share": figures["client_cpu_share"],
        "move_p50_ms": figures["p50_ms"],
        "move_p99_ms": figures["p99_ms"],
        "errors": moves.errors + missed,
        "missed_pushes": missed,
        "push_p50_ms": round(percentile(pushes, 50) * 1000, 2),
        "push_p99_ms": round(push_p99, 2),
        "push_vs_move": round(push_p99 / move_p99, 2) if move_p99 else None,
        "holds": moves.errors + missed == 0 and move_p99 < P99_BOUND_MS and push_p99 < P99_BOUND_MS,
    }


BACKLOG_SCRIPT = """
from django.core.management import call_command
from django.db import transaction
from games.analysis import jobs
from games.models import Game
call_command("seed_demo", "--players", "20", "--games", "{games}", "--days", "2", verbosity=0)
queued = 0
for game in Game.objects.exclude(status="active").filter(analysis__isnull=True).defer("state"):
    with transaction.atomic():
        jobs.enqueue(game)
    queued += 1
print("queued", queued)
"""


def queue_analysis_backlog(env: dict[str, str], games: int) -> int:
    """Seed finished games in the servers' database and queue their analysis; how many."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", BACKLOG_SCRIPT.format(games=games)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or "queued" not in done.stdout:
        raise RuntimeError(f"queueing the analysis backlog failed:\n{done.stderr[-2000:]}")
    return int(done.stdout.split("queued")[-1].split()[0])


def run_levels(target: Target, tokens: list[str], args: Any) -> list[dict[str, Any]]:
    results = []
    for count in args.players:
        result = asyncio.run(level(target, tokens[:count], args))
        result["load_average"] = [round(x, 2) for x in os.getloadavg()]
        results.append(result)
    return results


def print_levels(title: str, results: list[dict[str, Any]]) -> int:
    """The table of one run; the highest player count that held."""
    print(f"\n{title}")
    columns = ["players", "moves/s", "p50 ms", "p99 ms", "push p50", "push p99", "errors"]
    keys = [
        "players",
        "per_second",
        "move_p50_ms",
        "move_p99_ms",
        "push_p50_ms",
        "push_p99_ms",
        "errors",
    ]
    rows = [
        [
            *(r[key] for key in keys),
            "yes" if r["holds"] else "no",
            " ".join(map(str, r["load_average"])),
            "/".join(map(str, r["players_per_ws_worker"])),
        ]
        for r in results
    ]
    print_table([*columns, "holds", "load 1/5/15", "per ws worker"], rows)
    best = max((r["players"] for r in results if r["holds"]), default=0)
    print(
        f"highest player count with zero errors, move and push p99 < {P99_BOUND_MS:g} ms: "
        f"{best or 'none'}"
    )
    return best


@contextmanager
def profiled(target: Target, args: argparse.Namespace) -> Iterator[profiling.Recording | None]:
    """With --profile DIR, py-spy samples the cluster's HTTP and websocket workers."""
    if not args.profile:
        yield None
        return
    if not target.processes:
        raise SystemExit("--profile needs the benchmark's own cluster (not --url)")
    servers = {kind: pids for kind, pids in target.processes.items() if kind in ("web", "ws")}
    with profiling.recording(servers, Path(args.profile) / args.moves_over) as recording:
        yield recording


def print_profile(recording: profiling.Recording) -> dict[str, dict[str, object]]:
    """Where each kind of server spent its CPU over every level: tables and figures."""
    figures = {}
    for kind in sorted({path.name.split("-")[0] for path in recording.files}):
        files = [path for path in recording.files if path.name.startswith(f"{kind}-")]
        profile = profiling.summary(files, recording.seconds)
        print(
            f"\nwhere the {kind} workers' Python time went: {profile.python_seconds} s "
            f"holding the GIL in {profile.seconds} s, self time"
        )
        print_table(["area", "%"], profile.areas)
        print_table(["function", "%"], profile.functions)
        figures[kind] = profile.to_dict()
    return figures


def topology_of(args: argparse.Namespace, moves_over: str) -> argparse.Namespace:
    """The run's arguments: a websocket run takes `--ws-topology` (WEBxWS) for its cluster."""
    if moves_over == "rest":
        return argparse.Namespace(**{**vars(args), "moves_over": "rest"})
    web, ws = (int(part) for part in args.ws_topology.split("x"))
    return argparse.Namespace(**{**vars(args), "moves_over": "ws", "web": web, "ws": ws})


def run(args: argparse.Namespace) -> dict[str, Any]:
    """One run (one way of sending moves) on its own target: its tables and figures."""
    runs: dict[str, list[dict[str, Any]]] = {}
    with target_from(args) as target:
        if not target.ws:
            raise SystemExit("players needs websocket workers (--ws-url with --url)")
        tokens = create_players(target.database_url, max(args.players))
        with profiled(target, args) as recording:
            runs["plain"] = run_levels(target, tokens, args)
        if args.analysis:
            queued = queue_analysis_backlog(target.env, args.backlog)
            print(f"analysis backlog: {queued} finished games queued")
            runs["with_analysis"] = run_levels(target, tokens, args)
    over = "the game websocket" if args.moves_over == "ws" else "REST"
    print(f"\nmoves over {over}; players: {target.description}")
    print(f"pinning: {target.pinning}")
    print(f"think time {args.think:g} s on average; {args.duration:g} s measured per level")
    best = print_levels("without analysis" if args.analysis else "levels", runs["plain"])
    figures: dict[str, Any] = {
        "target": target.description,
        "pinning": target.pinning,
        "moves_over": args.moves_over,
        "levels": runs["plain"],
        "highest_holding": best,
    }
    if recording is not None:
        figures["profile"] = print_profile(recording)
    if args.analysis:
        figures["with_analysis"] = runs["with_analysis"]
        figures["highest_holding_with_analysis"] = print_levels(
            "with the task worker analysing beside it", runs["with_analysis"]
        )
    return figures


def print_side_by_side(runs: list[dict[str, Any]]) -> None:
    """Every run's levels in one table, and the ratio of the player counts held."""
    print("\nall runs of this session")
    columns = ["moves over", "players", "moves/s", "p99 ms", "push p99", "push/move"]
    rows = [
        [
            figures["moves_over"],
            r["players"],
            r["per_second"],
            r["move_p99_ms"],
            r["push_p99_ms"],
            r["push_vs_move"] if r["push_vs_move"] is not None else "-",
            r["errors"],
            "yes" if r["holds"] else "no",
            " ".join(map(str, r["load_average"])),
        ]
        for figures in runs
        for r in figures["levels"]
    ]
    print_table([*columns, "errors", "holds", "load 1/5/15"], rows)
    for figures in runs:
        print(f"{figures['moves_over']}: {figures['target']}")
    held = {figures["moves_over"]: figures["highest_holding"] for figures in runs}
    if held.get("rest") and "ws" in held:
        print(f"player count held, websocket / REST: {held['ws'] / held['rest']:.2f} (target >= 2)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_target_arguments(parser)
    parser.add_argument("--players", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds per level")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument(
        "--moves-over",
        nargs="+",
        choices=["rest", "ws"],
        default=["rest"],
        help="send moves over REST (default) or on the game's websocket; both: one run each",
    )
    parser.add_argument(
        "--ws-topology",
        default="1x2",
        help="HTTPxWEBSOCKET workers of the websocket run's cluster (default 1x2)",
    )
    parser.add_argument(
        "--analysis",
        action="store_true",
        help="run every level twice: task worker idle, then analysing a backlog beside it",
    )
    parser.add_argument("--backlog", type=int, default=300, help="finished games to analyse")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="sample the HTTP and websocket workers with py-spy over every level; print "
        "where their CPU went and keep the collapsed stacks in DIR/<moves-over>/",
    )
    args = parser.parse_args()
    args.task_workers = 1 if args.analysis else 0
    runs = [run(topology_of(args, moves_over)) for moves_over in args.moves_over]
    if len(runs) > 1:
        print_side_by_side(runs)
    levels = [level for figures in runs for level in figures["levels"]]
    emit_json(args.json, {"pinned": args.pin, "levels": levels, "runs": runs})


if __name__ == "__main__":
    main()
