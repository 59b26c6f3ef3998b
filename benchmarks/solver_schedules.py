"""Other splits of the budget between the main search and the probes, on the same deals:
``python -m benchmarks.solver_schedules --deals 300 --nodes 6000000 --schedule '{}'
--schedule '{"probe_nodes": 4096}' [--codes FILE] [--json]``.

Each ``--schedule`` is a JSON object of :class:`games.engine.solver_core.Schedule`'s
fields (``main_share``, ``probe_nodes``, ``probe_noise``; ``{}``: the solver's own). Every
schedule solves the same Classic deals (``--deals`` numbers from ``random.Random(--seed)``,
as ``games.engine.solver_stats`` draws them, or the codes listed in ``--codes``, one a
line) with ``--nodes`` positions each, and the benchmark prints, per schedule, the deals
decided, the CPU seconds and the deals one schedule decides and the first does not. The
last line is one JSON object. Positions, not seconds: the figures do not move with the
machine's load (printed beside them anyway).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from games.engine import CLASSIC, DEAL_COUNT, DEV_DEAL_KEY, Game, GameCode, native
from games.engine.solver import rule_tables
from games.engine.solver_core import BudgetExceeded, Schedule, search


def decided(code: str, nodes: int, schedule: Schedule) -> bool:
    """Whether the whole search decides deal ``code`` within ``nodes`` positions."""
    game = Game.new(GameCode.parse(code), DEV_DEAL_KEY)
    columns, down, foundations = game.layout()
    try:
        search(
            rule_tables(game.rule), columns, down, foundations, node_budget=nodes, schedule=schedule
        )
    except BudgetExceeded:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_schedules")
    parser.add_argument("--deals", type=int, default=300, help="Classic deals (300)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deal numbers (7)")
    parser.add_argument("--codes", type=Path, help="a file of game codes instead, one a line")
    parser.add_argument("--nodes", type=int, default=6_000_000, help="positions per deal")
    parser.add_argument("--schedule", action="append", default=[], help="JSON; repeatable")
    parser.add_argument("--json", action="store_true", help="print only the JSON line")
    args = parser.parse_args(argv)
    if args.codes:
        codes = args.codes.read_text().split()
    else:
        rng = random.Random(args.seed)
        codes = [str(GameCode(CLASSIC, rng.randrange(DEAL_COUNT))) for _ in range(args.deals)]
    schedules = [json.loads(text) for text in args.schedule or ["{}"]]
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    first: set[str] = set()
    for index, fields in enumerate(schedules):
        started = time.process_time()
        won_or_lost = {code for code in codes if decided(code, args.nodes, Schedule(**fields))}
        if index == 0:
            first = won_or_lost
        rows.append(
            {
                "schedule": fields,
                "decided": len(won_or_lost),
                "cpu_seconds": round(time.process_time() - started, 1),
                "only_this": sorted(won_or_lost - first),
                "only_first": sorted(first - won_or_lost),
            }
        )
    figures = {
        "engine": native.status(),
        "deals": len(codes),
        "node_budget": args.nodes,
        "schedules": rows,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    if not args.json:
        print(f"engine: {figures['engine']}; {len(codes)} deals, {args.nodes} positions each")
        for row in rows:
            print(
                f"{json.dumps(row['schedule']):<40} decided {row['decided']:>5}"
                f"  CPU {row['cpu_seconds']:>8} s  only this: {', '.join(row['only_this']) or '-'}"
                f"  only the first: {', '.join(row['only_first']) or '-'}"
            )
        print(f"load average {figures['load_before']} before, {figures['load_after']} after")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
