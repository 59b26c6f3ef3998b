"""Live races under load: race-progress push latency against move latency, in the same run.

    python -m benchmarks.races [--races 50] [--players 4] [--moves 20] [--pace 1.0] [--json]

Starts its own servers with `scripts.cluster` (PostgreSQL, a redis-server, two uvicorn
workers with production settings sharing Redis). Each race's racers join one room and
get ready (no countdown), follow the race feed on alternating workers, and play paced
moves (one every `--pace` seconds, with jitter) through the ordinary move endpoint,
also alternating workers, so most pushes cross processes.

- move latency: the move request's round trip, as the mover sees it;
- progress latency: from the same move's send to the `race-progress` push naming it
  (racer and move count) at each of the other racers' sockets.

Target: progress p99 no more than 1.5 x move p99, with zero errors (a refused move,
a lost push, a broken socket). The client runs on the same cores as the servers; the
load average before and after is printed, as the machine may be busy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from websockets.asyncio.client import ClientConnection, connect

from scripts import cluster as clusters

TARGET_RATIO = 1.5
TIMEOUT_SECONDS = 60
SETUP_AT_ONCE = 20
# Below uvicorn's 5 s keep-alive: a paced racer idles up to 1.5 x pace between moves, and
# a client reusing a connection the server is just closing gets a reset (counted as an error).
KEEPALIVE_SECONDS = 3.0
SERVER_ENV = {
    "THROTTLE_MOVES": "1000000/min",
    "LOG_LEVEL": "WARNING",
    "RACE_COUNTDOWN_SECONDS": "0",
    "DB_POOL_MAX": "20",
}
NAMES = """
import json
from accounts.models import ApiToken, hash_token
users = [ApiToken.objects.get(key_hash=hash_token(raw)).user for raw in {tokens!r}]
print(json.dumps([user.username for user in users]))
"""
DELETE_PLAYERS = """
from accounts.models import ApiToken, hash_token
for raw in {tokens!r}:
    ApiToken.objects.get(key_hash=hash_token(raw)).user.delete()
"""


@dataclass
class Run:
    move_latencies: list[float] = field(default_factory=list)
    progress_latencies: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    expected_receipts: int = 0
    errors: list[str] = field(default_factory=list)


class Client:
    def __init__(self, session: aiohttp.ClientSession, token: str) -> None:
        self.session = session
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}"}

    async def request(self, base: str, method: str, path: str, body: Any = None) -> Any:
        async with self.session.request(
            method, base + path, json=body, headers=self.headers
        ) as reply:
            answer = await reply.json(content_type=None)
            if reply.status >= 300:
                raise RuntimeError(f"{method} {path} answered {reply.status}: {answer}")
            return answer


async def follow(run: Run, socket: ClientConnection, me: str) -> None:
    """Note each `race-progress` of another racer against its move's send time."""
    try:
        async for text in socket:
            received = time.time()
            message = json.loads(text)
            if message["t"] != "race-progress":
                continue
            racer = message["d"]["racer"]
            if racer["player"] == me:
                continue
            sent = run.sent.get((racer["player"], racer["moves"]))
            if sent is not None:
                run.progress_latencies.append(received - sent)
    except Exception as error:  # a broken socket is an error of the run
        run.errors.append(f"socket of {me}: {error!r}")


def next_move(state: dict[str, Any], turn: int) -> tuple[str, dict[str, Any]]:
    """A legal move (deterministic choice), or an undo when none is left."""
    legal = state["legal_moves"]
    if legal:
        return "moves", {"move": legal[turn * 7 % len(legal)], "version": state["version"]}
    return "undo", {"version": state["version"]}


async def racer(
    run: Run, client: Client, name: str, base: str, game: int, moves: int, pace: float
) -> None:
    state = await client.request(base, "GET", f"/api/v1/games/{game}")
    for turn in range(moves):
        await asyncio.sleep(pace * random.uniform(0.5, 1.5))
        path, body = next_move(state, turn)
        sent = time.time()
        run.sent[(name, state["move_count"] + 1)] = sent
        try:
            state = await client.request(base, "POST", f"/api/v1/games/{game}/{path}", body)
        except Exception as error:
            run.errors.append(f"move of {name}: {error}")
            return
        run.move_latencies.append(time.time() - sent)


async def one_race(
    run: Run,
    clients: list[Client],
    names: list[str],
    workers: list[clusters.Worker],
    index: int,
    gate: asyncio.Semaphore,
    started: asyncio.Event,
    moves: int,
    pace: float,
) -> None:
    base = workers[index % 2].url
    async with gate:
        room = (await clients[0].request(base, "POST", "/api/v1/races", {"private": True}))["room"]
        for client in clients[1:]:
            await client.request(base, "POST", f"/api/v1/races/{room}/join")
        sockets = []
        for seat, client in enumerate(clients):
            worker = workers[(index + seat) % 2]
            socket = await connect(
                f"{worker.ws_url}/ws/v1/races/{room}/?token={client.token}",
                origin=worker.url,  # type: ignore[arg-type]
                open_timeout=TIMEOUT_SECONDS,
                compression=None,
            )
            sockets.append(socket)
        for client in clients:
            await client.request(base, "POST", f"/api/v1/races/{room}/ready")
        games = [
            (await client.request(base, "GET", f"/api/v1/races/{room}"))["me"]["game"]
            for client in clients
        ]
    readers = [
        asyncio.create_task(follow(run, socket, name))
        for socket, name in zip(sockets, names, strict=True)
    ]
    run.expected_receipts += len(clients) * (len(clients) - 1) * moves
    await started.wait()
    await asyncio.gather(
        *(
            racer(run, client, name, workers[(index + seat + 1) % 2].url, game, moves, pace)
            for seat, (client, name, game) in enumerate(zip(clients, names, games, strict=True))
        )
    )
    deadline = time.monotonic() + TIMEOUT_SECONDS
    while len(run.progress_latencies) < run.expected_receipts and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*(socket.close() for socket in sockets))


async def run_races(
    workers: list[clusters.Worker],
    tokens: list[str],
    names: list[str],
    players: int,
    moves: int,
    pace: float,
) -> Run:
    run = Run()
    gate = asyncio.Semaphore(SETUP_AT_ONCE)
    started = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=KEEPALIVE_SECONDS)
    async with aiohttp.ClientSession(connector=connector) as session:
        clients = [Client(session, token) for token in tokens]
        tasks = [
            asyncio.create_task(
                one_race(
                    run,
                    clients[i : i + players],
                    names[i : i + players],
                    workers,
                    i // players,
                    gate,
                    started,
                    moves,
                    pace,
                )
            )
            for i in range(0, len(clients), players)
        ]
        while run.expected_receipts < len(clients) * (players - 1) * moves:
            await asyncio.sleep(0.1)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        started.set()
        await asyncio.gather(*tasks)
    return run


def quantile_ms(values: Sequence[float], q: int) -> float:
    if len(values) < 2:
        return round(1000 * (values[0] if values else 0.0), 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=20, help="moves per racer")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a racer's moves")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()

    env = dict(SERVER_ENV)
    for name in ("DATABASE_URL", "RACE_TICK_SECONDS"):  # a database; the sockets' tick
        if os.environ.get(name):
            env[name] = os.environ[name]
    load_before = os.getloadavg()
    count = args.races * args.players
    with clusters.running_cluster(web=0, ws=2, web_server="uvicorn", env=env) as cluster:
        tokens = clusters.create_players(cluster.env, count)
        names = json.loads(
            cluster.manage("shell", "-c", NAMES.format(tokens=tokens)).stdout.split("\n")[-2]
        )
        try:
            wall = time.perf_counter()
            run = asyncio.run(
                run_races(cluster.workers, tokens, names, args.players, args.moves, args.pace)
            )
            wall = time.perf_counter() - wall
        finally:
            cluster.manage("shell", "-c", DELETE_PLAYERS.format(tokens=tokens))
    load_after = os.getloadavg()
    lost = run.expected_receipts - len(run.progress_latencies)
    errors = len(run.errors) + max(lost, 0)
    figures = {
        "races": args.races,
        "players_per_race": args.players,
        "moves": len(run.move_latencies),
        "move_p50_ms": quantile_ms(run.move_latencies, 50),
        "move_p99_ms": quantile_ms(run.move_latencies, 99),
        "progress_receipts": len(run.progress_latencies),
        "progress_p50_ms": quantile_ms(run.progress_latencies, 50),
        "progress_p99_ms": quantile_ms(run.progress_latencies, 99),
        "lost_pushes": max(lost, 0),
        "errors": errors,
        "moves_per_second": round(len(run.move_latencies) / wall, 1),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
    }
    ratio = float(figures["progress_p99_ms"]) / max(float(figures["move_p99_ms"]), 0.001)
    figures["ratio_p99"] = round(ratio, 2)
    figures["target_met"] = ratio <= TARGET_RATIO and errors == 0
    print(f"Races: {args.races} x {args.players} paced players, {args.moves} moves each")
    for key, value in figures.items():
        print(f"  {key:<20} {value}")
    print(f"  first errors: {run.errors[:3]}" if run.errors else "  no errors")
    verdict = "met" if figures["target_met"] else "MISSED"
    print(f"target: progress p99 <= {TARGET_RATIO} x move p99, zero errors: {verdict}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
