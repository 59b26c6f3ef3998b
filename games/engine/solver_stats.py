"""How strong is the solver? ``python -m games.engine.solver_stats N``.

Solves ``N`` random deals (numbers drawn from a seeded generator, development
deal key) with a per-deal time budget, on one core, and prints the share proven
winnable, proven unwinnable and unknown, each with a 95% Wilson confidence
interval, the median / p90 / max time and nodes per deal, the nodes per second
(per deal with ``-v``, and over all deals), the peak memory and the load average.
With ``--json`` the last line printed is one JSON object of these figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import sys
import time
from collections.abc import Sequence
from typing import Any

from .codes import DEAL_COUNT, GameCode
from .deal import DEV_DEAL_KEY
from .game import Game
from .rules import Rule
from .solver import SolveResult, solve

#: What `--clock` may name: the time a deal's budget and its seconds are counted in.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}

#: The normal quantile for a 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``(0, 1)`` when there are no trials).

    >>> low, high = wilson(90, 100)
    >>> round(low, 3), round(high, 3)
    (0.826, 0.945)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` in 0..1) of a non-empty sequence."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def peak_memory_mb() -> float:
    """Peak resident memory of this process in MB (``ru_maxrss`` is KB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def nodes_per_second(results: Sequence[SolveResult]) -> int | None:
    """Positions entered per second over ``results`` together (None when there are none)."""
    if not results:
        return None
    return round(sum(r.nodes for r in results) / max(sum(r.seconds for r in results), 1e-9))


def summarise(
    results: Sequence[SolveResult], *, budget: float, seed: int, rule: Rule
) -> dict[str, Any]:
    """The benchmark figures for a list of results."""
    n = len(results)
    figures: dict[str, Any] = {
        "deals": n,
        "rule": rule.letter,
        "seed": seed,
        "budget_seconds": budget,
    }
    for verdict in ("winnable", "unwinnable", "unknown"):
        chosen = [r for r in results if r.verdict == verdict]
        low, high = wilson(len(chosen), n)
        figures[verdict] = {
            "count": len(chosen),
            "share": len(chosen) / n if n else 0.0,
            "ci95": [low, high],
            "nodes_per_second": nodes_per_second(chosen),
        }
    decided = [r for r in results if r.decided]
    low, high = wilson(len(decided), n)
    figures["decided"] = {
        "count": len(decided),
        "share": len(decided) / n if n else 0.0,
        "ci95": [low, high],
        "nodes_per_second": nodes_per_second(decided),
    }
    if results:
        seconds = [r.seconds for r in results]
        nodes = [float(r.nodes) for r in results]
        figures["seconds"] = {
            "median": percentile(seconds, 0.5),
            "p90": percentile(seconds, 0.9),
            "max": max(seconds),
        }
        figures["nodes"] = {
            "median": int(percentile(nodes, 0.5)),
            "p90": int(percentile(nodes, 0.9)),
            "max": int(max(nodes)),
        }
        figures["nodes_per_second"] = nodes_per_second(results)
    figures["peak_memory_mb"] = round(peak_memory_mb(), 1)
    return figures


def render(figures: dict[str, Any]) -> str:
    """A readable table of :func:`summarise`'s figures."""
    lines = [
        f"{figures['deals']} random deals, rule {figures['rule']}, seed {figures['seed']}, "
        f"budget {figures['budget_seconds']:g} s"
        + (" of CPU" if figures.get("clock") == "cpu" else "")
        + (f" and {figures['node_budget']} nodes" if figures.get("node_budget") else "")
        + " per deal, one core",
        "",
        f"{'verdict':<12}{'count':>7}{'share':>9}   {'95% CI (Wilson)':<18}{'nodes/s':>9}",
    ]
    for verdict in ("winnable", "unwinnable", "unknown", "decided"):
        row = figures[verdict]
        low, high = row["ci95"]
        rate = "-" if row["nodes_per_second"] is None else str(row["nodes_per_second"])
        interval = f"{low:.1%} - {high:.1%}"
        lines.append(
            f"{verdict:<12}{row['count']:>7}{row['share']:>9.1%}   {interval:<18}{rate:>9}"
        )
    if "seconds" in figures:
        s, n = figures["seconds"], figures["nodes"]
        lines += [
            "",
            f"{'per deal':<12}{'median':>10}{'p90':>10}{'max':>10}",
            f"{'seconds':<12}{s['median']:>10.3f}{s['p90']:>10.3f}{s['max']:>10.3f}",
            f"{'nodes':<12}{n['median']:>10}{n['p90']:>10}{n['max']:>10}",
            "",
            f"nodes per second {figures['nodes_per_second']} (all deals together)",
        ]
    lines += ["", f"peak memory {figures['peak_memory_mb']:.1f} MB (maxrss)"]
    if "load_average_end" in figures:
        start, end = figures["load_average_start"], figures["load_average_end"]
        lines.append(
            f"load average (1, 5, 15 min) {' '.join(f'{x:.2f}' for x in start)} at the start, "
            f"{' '.join(f'{x:.2f}' for x in end)} at the end"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.solver_stats", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("deals", type=int, help="how many random deals to solve")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal (10)")
    parser.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="also stop a deal after this many positions (a budget the machine's load cannot move)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deal-number generator")
    parser.add_argument(
        "--rule",
        default="C",
        help="rule letter: C (Classic), R (Relaxed), U (Russian) or A (Alaska)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="what --budget and the seconds count: wall-clock time, or this process's CPU "
        "time (each deal gets the same share of a core however busy the machine is)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    parser.add_argument("-v", "--verbose", action="store_true", help="print a line per deal")
    args = parser.parse_args(argv)
    rule = Rule.from_letter(args.rule)
    rng = random.Random(args.seed)
    results: list[SolveResult] = []
    started = time.perf_counter()
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    for _ in range(args.deals):
        code = GameCode(rule, rng.randrange(DEAL_COUNT))
        result = solve(
            Game.new(code, DEV_DEAL_KEY),
            node_budget=args.nodes,
            time_budget=args.budget,
            clock=CLOCKS[args.clock],
        )
        results.append(result)
        if args.verbose:
            print(
                f"{code}  {result.verdict:<10} {result.seconds:8.3f} s {result.nodes:>9} nodes "
                f"{result.nodes / max(result.seconds, 1e-9):>8.0f} nodes/s",
                flush=True,
            )
    figures = summarise(results, budget=args.budget, seed=args.seed, rule=rule)
    figures["node_budget"] = args.nodes
    figures["clock"] = args.clock
    figures["wall_seconds"] = round(time.perf_counter() - started, 1)
    figures["load_average_start"] = load_at_start
    figures["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    print(render(figures))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
