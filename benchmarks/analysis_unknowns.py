"""How many analysed positions stay "unknown", at two budgets, on the same games.

    python -m benchmarks.analysis_unknowns [--games 20] [--moves 30] [--before 50000]
        [--after 150000] [--json]

Plays `--games` Classic deals as a careless player would (random legal moves from a
fixed seed, `--moves` of them or until none is left) and analyses each game's positions
the way the task worker does (`games.analysis.positions.LogPositions`: solved from the
end backwards, verdicts carried along the log), once with `--before` solver positions
per solve and once with `--after`. Node budgets make the verdicts the same on any
machine; the seconds per solve (compiled engine, this machine) say what a budget costs,
so "the same time" can be read off: the compiled solver at `--after` positions against
the interpreted one at `--before`, by their ratio in `benchmarks.solver_speed`. Prints
the share of winnable, unwinnable and unknown positions for each budget and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from benchmarks.harness import print_table
from games.analysis.positions import LogPositions
from games.engine import DEV_DEAL_KEY, Game, GameCode
from games.engine.solver import SolveResult, solve


def careless_game(chooser: random.Random, moves: int) -> tuple[Game, list[str]]:
    """A random Classic deal and a log of random legal moves played on it."""
    start = Game.new(GameCode.random(rng=chooser), DEV_DEAL_KEY)
    game = start.copy()
    log = []
    for _ in range(moves):
        if game.won or not game.legal_moves:
            break
        move = chooser.choice(list(game.legal_moves))
        game.play(move)
        log.append(str(move))
    return start, log


def analyse(games: list[tuple[Game, list[str]]], nodes: int) -> dict[str, Any]:
    """Every position's verdict at `nodes` per solve, as the analysis computes them."""
    verdicts: Counter[str] = Counter()
    seconds: list[float] = []

    def solver(private: Mapping[str, Any]) -> SolveResult:
        started = time.process_time()
        result = solve(private, node_budget=nodes)
        seconds.append(time.process_time() - started)
        return result

    for start, log in games:
        positions = LogPositions(start.copy(), log)
        for version in positions.unsolved():
            positions.solve(version, solver)
        for version in range(positions.last_version + 1):
            finding = positions.finding(version)
            verdicts[finding.verdict if finding else "unknown"] += 1
    total = sum(verdicts.values())
    return {
        "nodes": nodes,
        "positions": total,
        "solves": len(seconds),
        "cpu_seconds_per_solve_mean": round(statistics.fmean(seconds), 3) if seconds else 0.0,
        "cpu_seconds_per_solve_max": round(max(seconds), 3) if seconds else 0.0,
        **{
            f"{verdict}_share": round(verdicts[verdict] / total, 4)
            for verdict in ("winnable", "unwinnable", "unknown")
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=30, help="random moves per game")
    parser.add_argument("--before", type=int, default=50_000, help="positions per solve")
    parser.add_argument("--after", type=int, default=150_000, help="positions per solve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    chooser = random.Random(args.seed)
    games = [careless_game(chooser, args.moves) for _ in range(args.games)]
    load_before = os.getloadavg()
    runs = [analyse(games, nodes) for nodes in (args.before, args.after)]
    load_after = os.getloadavg()
    keys = ["nodes", "positions", "solves", "winnable_share", "unwinnable_share"]
    keys += ["unknown_share", "cpu_seconds_per_solve_mean", "cpu_seconds_per_solve_max"]
    print_table(
        ["nodes", "positions", "solves", "winnable", "unwinnable", "unknown", "CPU s/solve", "max"],
        [[run[key] for key in keys] for run in runs],
    )
    print(f"{args.games} careless games of up to {args.moves} moves (seed {args.seed})")
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    if args.json:
        figures = {"before": runs[0], "after": runs[1], "games": args.games}
        figures["load"] = [round(value, 2) for value in (*load_before, *load_after)]
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
