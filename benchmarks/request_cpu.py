"""Worker CPU per request, bare endpoint vs POST /moves, measured in one process.

    python -m benchmarks.request_cpu [--requests 100] [--rounds 8] [--json]

Throughput on a shared 2-core machine swings with whatever else runs; the CPU a
request costs the worker does not. This starts a cluster for its PostgreSQL and
Redis (no workers), runs the production settings in this process, and times
`time.process_time()` around `--requests` requests through Django's test client,
alternating bare and move rounds and keeping each one's best round. It excludes
PostgreSQL's and Redis's own CPU, which the load benchmarks include.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks.harness import BENCH_ENV, emit_json, print_table
from benchmarks.harness import MAX_MOVES_PER_GAME as MAX_MOVES
from scripts import cluster


def measure(requests: int, rounds: int) -> dict[str, float]:
    import django

    django.setup()
    from django.test import Client

    token = cluster.create_players(os.environ, 1)[0]
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")
    rng = random.Random(1)
    state: dict[str, Any] = {}

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        reply = client.post(path, body, content_type="application/json")
        if reply.status_code not in (200, 201):
            raise RuntimeError(f"{path} answered {reply.status_code}: {reply.content[:300]!r}")
        return dict(reply.json())

    def bare(counter: int) -> None:
        post("/bench/bare-move", {"move": "10D>3", "version": counter})

    def move(counter: int) -> None:
        nonlocal state
        if (
            not state
            or state["status"] != "active"
            or len(state["legal_moves"]) < 2
            or state["move_count"] >= MAX_MOVES
        ):
            state = post("/api/v1/games", {})
        chosen = rng.choice(state["legal_moves"])
        path = f"/api/v1/games/{state['id']}/moves"
        state = post(path, {"move": chosen, "version": state["version"]})

    kinds: dict[str, Callable[[int], None]] = {"bare": bare, "move": move}
    best = {name: float("inf") for name in kinds}
    for counter in range(50):  # warm up: pools, prepared statements, imports
        bare(counter)
        move(counter)
    for round_ in range(rounds):
        for name, request in kinds.items():
            started = time.process_time()
            for counter in range(requests):
                request(1000 + round_ * requests + counter)
            spent = (time.process_time() - started) / requests
            best[name] = min(best[name], spent * 1000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100, help="requests per round")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    with cluster.running_cluster(web=0, ws=0, env=BENCH_ENV) as running:
        os.environ.update(running.env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "yukon_site.settings"
        best = measure(args.requests, args.rounds)
    ratio = best["bare"] / best["move"]
    print("request_cpu: worker CPU per request in one process (best round)\n")
    rows = [[name, round(ms, 2)] for name, ms in best.items()]
    print_table(["endpoint", "CPU ms/request"], rows)
    print(f"\nbare/move CPU: {ratio:.2f} (worker CPU only; load runs add PostgreSQL, Redis)")
    emit_json(args.json, {"bare_cpu_ms": best["bare"], "move_cpu_ms": best["move"], "ratio": ratio})


if __name__ == "__main__":
    main()
