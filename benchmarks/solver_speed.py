"""Solver node expansion, old against new: ``python -m benchmarks.solver_speed``.

Loads the search of an earlier commit (``--base``, default the last commit
before the faster expansion) straight from git history into a temporary
module, then runs it and today's search on the same deals with the same node
budget, alternating deal by deal so both see the same machine load. Prints
nodes per second for each and their ratio; ``--json`` ends with one JSON line
of the figures and the load average.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from games.engine import DEAL_COUNT, DEV_DEAL_KEY, Game, GameCode, Rule
from games.engine import solver_core as new_core
from games.engine.solver import _position, rule_tables
from games.engine.solver_core import BudgetExceeded

#: The last commit whose solver_core.py copies columns move by move.
BASE_COMMIT = "dc442b5"
ROOT = Path(__file__).resolve().parent.parent


def load_old_core(commit: str, directory: Path) -> ModuleType:
    """``games/engine/solver_core.py`` of ``commit`` as a module of its own."""
    source = subprocess.run(
        ["git", "show", f"{commit}:games/engine/solver_core.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # Its relative imports (cards, rules) are unchanged engine modules.
    source = source.replace("from .", "from games.engine.")
    path = directory / f"solver_core_{commit}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def timed_main_search(core: ModuleType, game: Game, nodes: int) -> tuple[float, int, str]:
    """Seconds, nodes and verdict of the main depth-first search alone (no probes).

    Its move order has no randomness, so the old and the new code enter the
    very same positions in the same order: a comparison at equal node counts.
    """
    columns, down, foundations = _position(game)
    fits = rule_tables(game.rule)
    tables = core.build_tables(lambda c, t: c in fits.children[t])
    started = time.perf_counter()
    search = core.Search(tables, columns, down, foundations)
    finished = search.run(nodes)
    seconds = time.perf_counter() - started
    verdict = "unknown" if not finished else "unwinnable" if search.line is None else "winnable"
    return seconds, search.nodes, verdict


def timed_search(core: ModuleType, game: Game, nodes: int) -> tuple[float, int, str]:
    """Seconds, nodes and verdict of the whole search (main search and probes)."""
    columns, down, foundations = _position(game)
    fits = rule_tables(game.rule)
    tables = core.build_tables(lambda c, t: c in fits.children[t])
    started = time.perf_counter()
    try:
        line, spent = core.search(tables, columns, down, foundations, node_budget=nodes)
        verdict = "unwinnable" if line is None else "winnable"
    except (BudgetExceeded, core.BudgetExceeded) as stop:
        spent, verdict = stop.nodes, "unknown"
    return time.perf_counter() - started, spent, verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_speed")
    parser.add_argument("--deals", type=int, default=40, help="random deals per rule (40)")
    parser.add_argument("--nodes", type=int, default=20_000, help="node budget per deal (20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal numbers (1)")
    parser.add_argument("--base", default=BASE_COMMIT, help=f"old commit ({BASE_COMMIT})")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as directory:
        old_core = load_old_core(args.base, Path(directory))
    rng = random.Random(args.seed)
    games = [
        Game.new(GameCode(rule, rng.randrange(DEAL_COUNT)), DEV_DEAL_KEY)
        for rule in (Rule.from_letter("C"), Rule.from_letter("R"))
        for _ in range(args.deals)
    ]
    figures: dict[str, Any] = {
        "deals": len(games),
        "node_budget": args.nodes,
        "seed": args.seed,
        "base": args.base,
    }
    print(
        f"{len(games)} deals (half Classic, half Relaxed), seed {args.seed}, "
        f"{args.nodes} nodes each"
    )
    print(f"{'search':<26}{'nodes':>10}{'seconds':>10}{'nodes/s':>10}")
    for part, timed in (("main", timed_main_search), ("whole", timed_search)):
        totals = {name: [0.0, 0] for name in ("old", "new")}
        same = 0
        for game in games:
            runs = {}
            # Alternate deal by deal so both see the same machine load.
            for name, core in (("old", old_core), ("new", new_core)):
                seconds, nodes, verdict = timed(core, game, args.nodes)
                totals[name][0] += seconds
                totals[name][1] += nodes
                runs[name] = (nodes, verdict)
            same += runs["old"] == runs["new"]
        for name in ("old", "new"):
            spent, entered = totals[name]
            rate = entered / spent
            figures[f"{part}_{name}_nodes_per_second"] = round(rate)
            label = f"{part}, {'old ' + args.base if name == 'old' else 'new'}"
            print(f"{label:<26}{int(entered):>10}{spent:>10.2f}{rate:>10.0f}")
        ratio = figures[f"{part}_new_nodes_per_second"] / figures[f"{part}_old_nodes_per_second"]
        figures[f"{part}_speedup"] = round(ratio, 2)
        figures[f"{part}_same_nodes_and_verdict"] = same
        print(f"{part}: speed-up {ratio:.2f}x; same nodes and verdict on {same} of {len(games)}")
    figures["load_before"] = [round(x, 2) for x in load_before]
    figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(f"load average {figures['load_before']} before, {figures['load_after']} after")
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
