"""Worker CPU per move: over REST, on the game's websocket, and the bare endpoint, in one run.

    python -m benchmarks.request_cpu [--moves 200] [--rounds 5] [--json]

Throughput on a shared 2-core machine swings with whatever else runs; the CPU a
request costs its worker does not. This starts `scripts.cluster` (one granian
HTTP worker, one uvicorn websocket worker, PostgreSQL, Redis) and plays moves one
at a time from this process, each kind against the worker that serves it:

- `rest`: `POST /api/v1/games/<id>/moves` on the HTTP worker (granian WSGI);
- `rest-asgi`: the same on the websocket worker (uvicorn ASGI), the same server as `ws`;
- `ws`: the `move` message on the game's websocket (the websocket worker);
- `bare`: `POST /bench/bare-move` on the HTTP worker (benchmarks/bare_move.py: the same
  middleware, authentication, throttle and database round trips, no game).

Like the browser, every game mover keeps the game's websocket open, so a REST
move's push is delivered to the player's own socket by the websocket worker,
and a websocket move's push reaches that worker too (which drops it: the answer
stood for it). So a round reads the CPU time (user + system, from /proc via
psutil) of both workers' process trees over `--moves` moves: the cost of a move
to the service, whichever door it takes. Starting a new game (and its socket)
is left out. Rounds alternate the kinds; each kind keeps its best round (the
least disturbed by other load). PostgreSQL's and Redis's own CPU are not
counted: the load benchmarks include them.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
from typing import Any

import aiohttp
import psutil

from benchmarks.harness import BENCH_ENV, MAX_MOVES_PER_GAME, emit_json, print_table
from scripts import cluster

KINDS = ["rest", "rest-asgi", "ws", "bare"]
TARGET_WS_SHARE = 0.5  # a websocket move costs no more than half a REST move


def cpu_seconds(processes: list[psutil.Process]) -> float:
    """User + system CPU of these processes and every one under them (granian forks its worker)."""
    total = 0.0
    for process in processes:
        for member in [process, *process.children(recursive=True)]:
            times = member.cpu_times()
            total += times.user + times.system
    return total


class Mover:
    """Plays one kind of move against one worker, starting a new game when one ends."""

    def __init__(
        self, session: aiohttp.ClientSession, kind: str, http: str, ws: str, token: str
    ) -> None:
        self.session = session
        self.kind = kind
        self.http = http
        self.ws = ws
        self.headers = {"Authorization": f"Bearer {token}"}
        self.random = random.Random(KINDS.index(kind))
        self.state: dict[str, Any] | None = None
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.ids = itertools.count(1)

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.session.post(self.http + path, json=body, headers=self.headers) as reply:
            answer = await reply.json(content_type=None)
            if reply.status not in (200, 201):
                raise RuntimeError(f"{path} answered {reply.status}: {answer}")
            return dict(answer)

    def needs_new_game(self) -> bool:
        state = self.state
        return (
            state is None
            or state["status"] != "active"
            or len(state["legal_moves"]) < 2
            or state["move_count"] >= MAX_MOVES_PER_GAME
        )

    async def new_game(self) -> None:
        self.state = await self.post("/api/v1/games", {})
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            await self.reader
        self.socket = await self.session.ws_connect(
            f"{self.ws}/ws/v1/games/{self.state['id']}/",
            headers=self.headers,
            origin=self.ws.replace("ws://", "http://", 1),
        )
        for _ in ("hello", "state"):
            await self.socket.receive_json(timeout=30)
        if self.kind != "ws":  # the REST player's socket only receives its pushes
            self.reader = asyncio.create_task(self.drain(self.socket))

    async def drain(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for _ in socket:
            pass

    async def move(self) -> None:
        if self.kind == "bare":
            await self.post("/bench/bare-move", {"move": "10D>3", "version": next(self.ids)})
            return
        assert self.state is not None
        move = self.random.choice(self.state["legal_moves"])
        body = {"move": move, "version": self.state["version"]}
        if self.kind == "ws":
            assert self.socket is not None
            request_id = str(next(self.ids))
            await self.socket.send_str(json.dumps({"t": "move", "id": request_id, "d": body}))
            while True:
                reply = await self.socket.receive_json(timeout=30)
                if reply.get("id") == request_id:
                    break
            if reply["t"] != "answer":
                raise RuntimeError(f"the websocket refused a move: {reply}")
            self.state = reply["d"]
        else:
            self.state = await self.post(f"/api/v1/games/{self.state['id']}/moves", body)


async def round_of(mover: Mover, workers: list[psutil.Process], moves: int) -> float:
    """Worker CPU milliseconds per move over `moves` moves (new games not counted)."""
    if mover.kind == "ws":  # a socket left unread between rounds missed the server's pings
        await mover.new_game()
    spent = 0.0
    started = cpu_seconds(workers)
    for _ in range(moves):
        if mover.kind != "bare" and mover.needs_new_game():
            spent += cpu_seconds(workers) - started
            await mover.new_game()
            started = cpu_seconds(workers)
        await mover.move()
    spent += cpu_seconds(workers) - started
    return spent / moves * 1000


async def measure(running: cluster.Cluster, tokens: list[str], args: Any) -> dict[str, list[float]]:
    web, ws = running.of_kind("web")[0], running.of_kind("ws")[0]
    workers = [psutil.Process(web.child.pid), psutil.Process(ws.child.pid)]
    async with aiohttp.ClientSession() as session:
        movers = {
            kind: Mover(session, kind, ws.url if kind == "rest-asgi" else web.url, ws.ws_url, token)
            for kind, token in zip(KINDS, tokens, strict=True)
            if kind in args.kinds
        }
        for mover in movers.values():  # warm up: pools, prepared statements, imports, caches
            await round_of(mover, workers, 30)
        rounds: dict[str, list[float]] = {kind: [] for kind in movers}
        for _ in range(args.rounds):
            for kind, mover in movers.items():
                rounds[kind].append(await round_of(mover, workers, args.moves))
        for mover in movers.values():
            if mover.socket is not None:
                await mover.socket.close()
            if mover.reader is not None:
                await mover.reader
    return rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves per round and kind")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=KINDS, help="what to measure")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with cluster.running_cluster(web=1, ws=1, web_threads=4, env=BENCH_ENV) as running:
        tokens = cluster.create_players(running.env, len(KINDS))
        rounds = asyncio.run(measure(running, tokens, args))
    load_after = os.getloadavg()
    best = {kind: min(values) for kind, values in rounds.items()}
    median = {kind: statistics.median(values) for kind, values in rounds.items()}
    servers = {"rest": "granian", "bare": "granian", "rest-asgi": "uvicorn", "ws": "uvicorn"}
    print(f"request_cpu: worker CPU per move, {args.rounds} rounds of {args.moves} moves\n")
    reference = best.get("rest", float("nan"))
    rows = [
        [kind, servers[kind], round(best[kind], 3), round(median[kind], 3),
         round(best[kind] / reference, 2)]
        for kind in rounds
    ]  # fmt: skip
    print_table(["kind", "serving worker", "best ms/move", "median ms/move", "of rest"], rows)
    print("(CPU of both workers: the HTTP worker and the websocket worker delivering pushes)")
    share = best.get("ws", float("nan")) / reference
    verdict = "met" if share <= TARGET_WS_SHARE else "NOT met"
    print(f"\nwebsocket / REST CPU per move: {share:.2f} (target <= {TARGET_WS_SHARE}: {verdict})")
    print(
        "load average before / after: "
        f"{' '.join(f'{x:.2f}' for x in load_before)} / {' '.join(f'{x:.2f}' for x in load_after)}"
    )
    emit_json(
        args.json,
        {
            "best_cpu_ms": best,
            "median_cpu_ms": median,
            "rounds_cpu_ms": rounds,
            "ws_of_rest": share,
            "target_met": bool(share <= TARGET_WS_SHARE),
            "load_average_before": load_before,
            "load_average_after": load_after,
        },
    )


if __name__ == "__main__":
    main()
