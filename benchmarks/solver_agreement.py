"""The C search against the interpreted reference on many deals:
``python -m benchmarks.solver_agreement [--deals 250 --nodes 20000 --factor 10 --json]``.

For ``--deals`` deals of each rule (numbers from ``random.Random(--seed)``), solves
each deal three times: the interpreted reference (``games.engine.native.pure()``, the
engine's sources) and the C search, both with ``--nodes`` positions, then the C search
with ``--factor`` times as many. Counts the deals where the first two are identical
(positions entered, verdict, stop reason, line) and, among the deals that the reference
and the longer C search both decide, those whose verdicts differ (there must be none).
Every winning line of the C search is replayed in the engine to a win. Prints a table
per rule and the load; the last line is one JSON object (``--json``: the figures only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

import games.engine
from games.engine import DEAL_COUNT, DEV_DEAL_KEY, RULES, Game, GameCode, native
from games.engine.solver import SolveResult, solve


def answer(result: Any) -> tuple[str, list[str], str | None, int]:
    return result.verdict, [str(move) for move in result.line], result.reason, result.nodes


def replays(game: Game, result: SolveResult) -> bool:
    """Whether ``result``'s line, played move by move in the engine, wins ``game``."""
    copy = game.copy()
    for move in result.line:
        copy.play(move)
    return copy.won


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_agreement")
    parser.add_argument("--deals", type=int, default=250, help="deals per rule (250)")
    parser.add_argument("--nodes", type=int, default=20_000, help="positions per search (20000)")
    parser.add_argument("--factor", type=int, default=10, help="the longer C search (10x)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deal numbers (7)")
    parser.add_argument("--json", action="store_true", help="print only the JSON line")
    args = parser.parse_args(argv)
    print(f"engine: {native.status()}")
    if native.search_core() is None:
        print("nothing to compare: build the C search with `make install` (needs gcc)")
        return 1
    load_before = os.getloadavg()
    reference: Any = native.pure()
    reference_solve = native.pure("solver").solve
    rng = random.Random(args.seed)
    rows: dict[str, dict[str, int]] = {}
    cpu = {"reference": 0.0, "c": 0.0}
    problems: list[str] = []
    for rule in RULES.values():
        row = rows[rule.name] = dict(deals=0, identical=0, both_decide=0, disagree=0, decided=0)
        for _ in range(args.deals):
            code = GameCode(rule, rng.randrange(DEAL_COUNT))
            game = Game.new(code, DEV_DEAL_KEY)
            started = time.process_time()
            theirs = reference_solve(
                reference.Game.new(reference.GameCode.parse(str(code)), reference.DEV_DEAL_KEY),
                node_budget=args.nodes,
            )
            cpu["reference"] += time.process_time() - started
            started = time.process_time()
            ours = solve(game, node_budget=args.nodes)
            cpu["c"] += time.process_time() - started
            longer = solve(game, node_budget=args.nodes * args.factor)
            row["deals"] += 1
            row["identical"] += answer(ours) == answer(theirs)
            row["decided"] += longer.decided
            if theirs.decided and longer.decided:
                row["both_decide"] += 1
                if theirs.verdict != longer.verdict:
                    row["disagree"] += 1
                    problems.append(f"{code}: reference {theirs.verdict}, C {longer.verdict}")
            for result in (ours, longer):
                if result.verdict == "winnable" and not replays(game, result):
                    problems.append(f"{code}: the C search's line does not win")
    load_after = os.getloadavg()
    total = {key: sum(row[key] for row in rows.values()) for key in next(iter(rows.values()))}
    figures = {
        "deals": total["deals"],
        "identical_at_same_budget": total["identical"],
        "both_decide": total["both_decide"],
        "disagreements": len(problems),
        "decided_by_longer_c": total["decided"],
        "node_budget": args.nodes,
        "factor": args.factor,
        "seed": args.seed,
        "cpu_seconds": {key: round(value, 1) for key, value in cpu.items()},
        "by_rule": rows,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "engine_sources_sha256": games.engine.native.sources_digest()[:12],
    }
    if not args.json:
        print(
            f"{args.deals} deals per rule, seed {args.seed}: reference and C at {args.nodes} "
            f"positions, C again at {args.nodes * args.factor}"
        )
        print(f"{'rule':<10}{'deals':>7}{'identical':>11}{'both decide':>13}{'disagree':>10}")
        for name, row in rows.items():
            print(
                f"{name:<10}{row['deals']:>7}{row['identical']:>11}"
                f"{row['both_decide']:>13}{row['disagree']:>10}"
            )
        for problem in problems:
            print(problem)
        print(
            f"CPU: reference {cpu['reference']:.1f} s, C {cpu['c']:.1f} s at the same budget; "
            f"load average {figures['load_before']} before, {figures['load_after']} after "
            "(2 shared cores)"
        )
    print(json.dumps(figures, sort_keys=True))
    return 0 if not problems and total["identical"] == total["deals"] else 2


if __name__ == "__main__":
    sys.exit(main())
