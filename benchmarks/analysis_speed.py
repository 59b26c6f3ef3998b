"""How fast finished games are analysed: ``python -m benchmarks.analysis_speed [--json]``.

Starts its own servers with ``scripts.cluster`` (PostgreSQL, one HTTP worker and one
task worker with production settings), then, one game after another, plays a game
through the API as a careless player would (random legal moves, ``--moves`` of them
or until none is left) and resigns it. For each game it measures, from the resign's
answer:

- **turning point shown**: until ``GET /games/<id>/analysis`` says where the win was
  lost (``turning`` is no longer ``pending``), what the end dialog waits for;
- **analysis done**: until every position has its verdict (``status`` ``done``);
- **worker CPU**: the task worker's CPU seconds over that game (user + system), read
  from the process, so "games analysed per core-minute" is 60 over its mean.

Games run one at a time, so a figure is one game's own, without a queue in front of
it; the worker polls its queue every second, and that wait is part of what a player
sees. The load average before and after is printed, as the machine may be busy.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass
from typing import Any

import psutil

from benchmarks.harness import percentile, print_table
from scripts import cluster as clusters

#: How often the client asks for the analysis (its own requests cost the web worker little).
POLL_SECONDS = 0.1
#: A game whose analysis takes longer is reported as a failure, not waited for.
TIMEOUT_SECONDS = 600
SERVER_ENV = {"THROTTLE_MOVES": "1000000/min", "LOG_LEVEL": "WARNING"}


@dataclass
class Analysed:
    moves: int
    turning: str
    turning_seconds: float
    done_seconds: float
    worker_cpu: float


class Client:
    """One player on the HTTP API (stdlib only: a few sequential requests)."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers=self.headers
        )
        with urllib.request.urlopen(request, timeout=60) as reply:
            return json.loads(reply.read())


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def play_and_resign(client: Client, chooser: random.Random, moves: int) -> dict[str, Any]:
    state = client.call("POST", "/api/v1/games", {})
    for _ in range(moves):
        if state["status"] != "active" or not state["legal_moves"]:
            break
        body = {"move": chooser.choice(state["legal_moves"]), "version": state["version"]}
        state = client.call("POST", f"/api/v1/games/{state['id']}/moves", body)
    if state["status"] == "active":
        client.call("POST", f"/api/v1/games/{state['id']}/resign", {"version": state["version"]})
    return dict(state)


def analyse_one(
    client: Client, worker: psutil.Process, chooser: random.Random, moves: int
) -> Analysed:
    cpu_before = cpu_seconds(worker)
    state = play_and_resign(client, chooser, moves)
    ended = time.perf_counter()
    turning_seconds: float | None = None
    while time.perf_counter() - ended < TIMEOUT_SECONDS:
        report = client.call("GET", f"/api/v1/games/{state['id']}/analysis")
        now = time.perf_counter() - ended
        if turning_seconds is None and report["turning"] != "pending":
            turning_seconds = now
        if report["status"] == "done":
            assert turning_seconds is not None
            return Analysed(
                state["move_count"],
                report["turning"],
                turning_seconds,
                now,
                cpu_seconds(worker) - cpu_before,
            )
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"game {state['id']}: no analysis after {TIMEOUT_SECONDS} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="finished games to analyse")
    parser.add_argument("--moves", type=int, default=40, help="random moves before resigning")
    parser.add_argument("--seed", type=int, default=1, help="the careless player's choices")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with clusters.running_cluster(web=1, ws=0, workers=1, redis=1, env=SERVER_ENV) as running:
        base = running.of_kind("web")[0].url
        worker = psutil.Process(running.of_kind("worker")[0].child.process.pid)
        client = Client(base, clusters.create_players(running.env, 1)[0])
        chooser = random.Random(args.seed)
        results = []
        for number in range(1, args.games + 1):
            results.append(analyse_one(client, worker, chooser, args.moves))
            print(f"game {number}/{args.games}: {results[-1]}", flush=True)
    load_after = os.getloadavg()
    figures = summarise(results, args, load_before, load_after)
    print()
    print_table(
        ["figure", "p50", "p99", "mean"],
        [
            [name, figures[f"{key}_p50"], figures[f"{key}_p99"], figures[f"{key}_mean"]]
            for name, key in [
                ("turning point shown (s)", "turning_s"),
                ("analysis done (s)", "done_s"),
                ("worker CPU per game (s)", "worker_cpu_s"),
            ]
        ],
    )
    print(f"\ngames analysed per core-minute: {figures['games_per_core_minute']}")
    print(f"turning verdicts: {figures['turning']}")
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    if args.json:
        print(json.dumps(figures))


def summarise(
    results: list[Analysed],
    args: argparse.Namespace,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> dict[str, Any]:
    figures: dict[str, Any] = {"games": len(results), "moves_before_resigning": args.moves}
    for key, values in [
        ("turning_s", [result.turning_seconds for result in results]),
        ("done_s", [result.done_seconds for result in results]),
        ("worker_cpu_s", [result.worker_cpu for result in results]),
    ]:
        figures[f"{key}_p50"] = round(percentile(values, 50), 3)
        figures[f"{key}_p99"] = round(percentile(values, 99), 3)
        figures[f"{key}_mean"] = round(statistics.fmean(values), 3)
    figures["games_per_core_minute"] = round(60 / max(figures["worker_cpu_s_mean"], 1e-9), 1)
    figures["turning"] = dict(Counter(result.turning for result in results))
    figures["load_before"] = [round(value, 2) for value in load_before]
    figures["load_after"] = [round(value, 2) for value in load_after]
    return figures


if __name__ == "__main__":
    main()
