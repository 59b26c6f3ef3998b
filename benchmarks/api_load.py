"""Load on the move endpoint next to a bare endpoint of the same stack (issue 4, "Speed").

    python -m benchmarks.api_load [--clients 16 64] [--duration 10] [--json]

At each concurrency level, C clients (each a player with its own token) first
hammer the bare endpoint (/bench/bare-move: same server, middleware, token
authentication, throttle and pool; one locked row read, a 2 KB JSON update and
an insert), then play real games through POST /api/v1/games/<id>/moves with
moves chosen from the legal moves the server returned. Closed loop: each client
sends its next request when the previous one is answered. The load generator
runs on the same cores as the servers; its CPU share is printed.

Target: moves reach 70% of the bare throughput, with p99 at most twice the bare p99.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from benchmarks.harness import (
    Figures,
    Player,
    Target,
    Window,
    add_target_arguments,
    create_players,
    emit_json,
    print_table,
    target_from,
)

THROUGHPUT_TARGET = 0.70
P99_TARGET = 2.0


async def _bare(player: Player, counter: int) -> bool:
    status, _ = await player.post("/bench/bare-move", {"move": "10D>3", "version": counter})
    return status == 200


async def _move(player: Player, counter: int) -> bool:
    status, _, _ = await player.move()
    return status == 200


async def measure(
    players: list[Player],
    request: Callable[[Player, int], Awaitable[bool]],
    warmup: float,
    duration: float,
) -> Figures:
    """Every player loops on `request` until the window closes; only the window counts."""
    window = Window(warmup, duration)
    figures = Figures(seconds=duration)
    cpu_at_start: list[float] = []

    async def loop(player: Player) -> None:
        counter = 0
        while window.running():
            counter += 1
            started = time.perf_counter()
            try:
                ok = await request(player, counter)
            except (aiohttp.ClientError, RuntimeError):
                ok = False
            finished = time.perf_counter()
            if not cpu_at_start and finished >= window.start:
                cpu_at_start.append(time.process_time())
            if window.counts(finished):
                if ok:
                    figures.latencies.append(finished - started)
                else:
                    figures.errors += 1

    await asyncio.gather(*(loop(player) for player in players))
    figures.client_cpu = time.process_time() - (cpu_at_start or [time.process_time()])[0]
    return figures


async def run(target: Target, tokens: list[str], levels: list[int], args: Any) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    results: dict[str, Any] = {}
    async with aiohttp.ClientSession(connector=connector) as session:
        for clients in levels:
            players = [
                Player(session, target.web[i % len(target.web)], tokens[i], seed=i)
                for i in range(clients)
            ]
            await asyncio.gather(*(player.new_game() for player in players))
            bare = await measure(players, _bare, args.warmup, args.duration)
            moves = await measure(players, _move, args.warmup, args.duration)
            results[str(clients)] = {"bare": bare.to_dict(), "moves": moves.to_dict()}
    return results


def report(target: Target, results: dict[str, Any], args: Any) -> dict[str, Any]:
    print(f"api_load: {target.description}")
    print(f"closed loop, {args.warmup:g} s warm-up then {args.duration:g} s measured per row\n")
    rows = []
    verdicts: dict[str, Any] = {}
    for clients, pair in results.items():
        bare, moves = pair["bare"], pair["moves"]
        for name, figures in (("bare", bare), ("moves", moves)):
            rows.append(
                [
                    clients,
                    name,
                    figures["per_second"],
                    figures["p50_ms"],
                    figures["p99_ms"],
                    figures["errors"],
                    figures["client_cpu_share"],
                ]
            )
        throughput = moves["per_second"] / bare["per_second"] if bare["per_second"] else 0.0
        p99 = moves["p99_ms"] / bare["p99_ms"] if bare["p99_ms"] else float("inf")
        verdicts[clients] = {
            "throughput_ratio": round(throughput, 3),
            "p99_ratio": round(p99, 3),
            "meets_target": throughput >= THROUGHPUT_TARGET and p99 <= P99_TARGET,
        }
    print_table(
        ["clients", "endpoint", "req/s", "p50 ms", "p99 ms", "errors", "client CPU (cores)"], rows
    )
    print()
    for clients, verdict in verdicts.items():
        print(
            f"{clients:>3} clients: moves reach {verdict['throughput_ratio']:.0%} of bare "
            f"throughput (target >= {THROUGHPUT_TARGET:.0%}), p99 {verdict['p99_ratio']:.2f}x "
            f"bare (target <= {P99_TARGET:g}x): "
            f"{'met' if verdict['meets_target'] else 'MISSED'}"
        )
    return {"target": target.description, "levels": results, "verdicts": verdicts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_target_arguments(parser)
    parser.add_argument("--clients", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds per row")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds per row")
    args = parser.parse_args()
    with target_from(args) as target:
        tokens = create_players(target.database_url, max(args.clients))
        results = asyncio.run(run(target, tokens, args.clients, args))
    emit_json(args.json, report(target, results, args))


if __name__ == "__main__":
    main()
