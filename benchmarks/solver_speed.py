"""Compiled against interpreted, in one run: ``python -m benchmarks.solver_speed [--json]``.

Runs the solver's search (main search and probes, node-budgeted) on the same
deals with the compiled engine (``games.engine``, built by ``make install``: the
C search of ``_search.c``, else the mypyc-compiled ``solver_core``) and with its
sources interpreted (``games.engine.native.pure()``, the reference search),
alternating deal by deal so both see the same machine load, timed in CPU seconds,
and checks that both enter the same number of positions, reach the same verdict
and find the same line. Then the engine's push/pop pairs
per second (``games.engine.bench``), in alternating rounds too. Prints a table
of nodes per second, the ratios and the load average; ``--json`` ends with one
JSON line holding ``compiled_nodes_per_s``, ``pure_nodes_per_s`` and
``compiled_vs_pure``.

``--base COMMIT`` adds a third column: ``solver_core.py`` of that commit, loaded
from git history and interpreted, to compare a change of the search node for
node with the code before it.
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

import games.engine
from games.engine import DEAL_COUNT, GameCode, Rule, bench, native

ROOT = Path(__file__).resolve().parent.parent


def load_old_core(commit: str, directory: Path) -> ModuleType:
    """``games/engine/solver_core.py`` of ``commit`` as a module of its own, interpreted."""
    source = subprocess.run(
        ["git", "show", f"{commit}:games/engine/solver_core.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # Its relative imports (cards, rules) come from the interpreted engine.
    source = source.replace("from .", f"from {native.PURE_PACKAGE}.")
    path = directory / f"solver_core_{commit}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


class Engine:
    """One side of the comparison: an engine package and the solver core it searches with."""

    def __init__(self, name: str, package: ModuleType, core: ModuleType | None = None) -> None:
        self.name = name
        self.package = package
        self.solver: Any = importlib.import_module(f"{package.__name__}.solver")
        self.core: Any = core or importlib.import_module(f"{package.__name__}.solver_core")
        self.seconds = 0.0
        self.nodes = 0

    def timed_search(self, code: str, nodes: int) -> tuple[int, str, tuple[tuple[int, int], ...]]:
        """Search deal ``code`` for at most ``nodes`` positions: (positions, verdict, line).

        Timed in CPU seconds of this process: the machine is shared.
        """
        engine: Any = self.package
        game = engine.Game.new(engine.GameCode.parse(code), engine.DEV_DEAL_KEY)
        columns, down, foundations = game.layout()
        fits = self.solver.rule_tables(game.rule)
        tables = self.core.build_tables(lambda c, t: c in fits.children[t])
        started = time.process_time()
        line: list[tuple[int, int]] | None = None
        try:
            line, spent = self.core.search(tables, columns, down, foundations, node_budget=nodes)
            verdict = "unwinnable" if line is None else "winnable"
        except self.core.BudgetExceeded as stop:
            spent, verdict = stop.nodes, "unknown"
        self.seconds += time.process_time() - started
        self.nodes += spent
        return spent, verdict, tuple(line or ())

    @property
    def rate(self) -> float:
        """Positions per second so far."""
        return self.nodes / self.seconds if self.seconds else 0.0


def push_pop_rates(seconds: float, rounds: int) -> tuple[float, float]:
    """Push/pop pairs per second, compiled and interpreted, in alternating rounds."""
    sides: list[Any] = [bench, native.pure("bench")]
    pairs = [side.push_pop_pairs() for side in sides]
    done = [0, 0]
    spent = [0.0, 0.0]
    for _ in range(rounds):
        for i, side in enumerate(sides):
            started = time.perf_counter()
            done[i] += side.run_until(pairs[i], seconds / rounds)
            spent[i] += time.perf_counter() - started
    return done[0] / spent[0], done[1] / spent[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.solver_speed")
    parser.add_argument("--deals", type=int, default=20, help="random deals per rule (20)")
    parser.add_argument("--nodes", type=int, default=20_000, help="node budget per deal (20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal numbers (1)")
    parser.add_argument("--push-pop-seconds", type=float, default=4.0, help="per engine (4)")
    parser.add_argument("--base", help="also run solver_core.py of this commit, interpreted")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args(argv)
    status = native.status()
    print(f"engine: {status}")
    if not games.engine.compiled():
        print("nothing to compare: build the compiled engine with `make install` (needs gcc)")
        return 1
    load_before = os.getloadavg()
    pure = native.pure()
    engines = [Engine("compiled", games.engine), Engine("interpreted", pure)]
    with tempfile.TemporaryDirectory() as directory:
        if args.base:
            engines.append(Engine(args.base, pure, load_old_core(args.base, Path(directory))))
    rng = random.Random(args.seed)
    codes = [
        str(GameCode(Rule.from_letter(letter), rng.randrange(DEAL_COUNT)))
        for letter in "CR"
        for _ in range(args.deals)
    ]
    print(
        f"{len(codes)} deals (half Classic, half Relaxed), seed {args.seed}, "
        f"at most {args.nodes} positions each, whole search (main search and probes)"
    )
    same = {engine.name: 0 for engine in engines[1:]}
    for index, code in enumerate(codes):
        # Alternate which side goes first, so that neither always follows the other.
        order = engines if index % 2 == 0 else engines[::-1]
        runs = {engine.name: engine.timed_search(code, args.nodes) for engine in order}
        for engine in engines[1:]:
            # The same positions entered, the same verdict and the very same line.
            same[engine.name] += runs[engine.name] == runs["compiled"]
    compiled, interpreted = engines[0], engines[1]
    print(f"{'solver':<22}{'positions':>12}{'CPU s':>10}{'positions/s':>13}")
    for engine in engines:
        print(f"{engine.name:<22}{engine.nodes:>12}{engine.seconds:>10.2f}{engine.rate:>13.0f}")
    ratio = compiled.rate / interpreted.rate
    print(f"compiled vs interpreted: {ratio:.2f}x")
    for name, count in same.items():
        print(
            f"same positions, verdict and line as compiled, {name}: {count} of {len(codes)} deals"
        )
    push_pop = push_pop_rates(args.push_pop_seconds, rounds=8)
    push_pop_ratio = push_pop[0] / push_pop[1]
    print(
        f"engine push/pop pairs per second: compiled {push_pop[0]:,.0f}, "
        f"interpreted {push_pop[1]:,.0f}, {push_pop_ratio:.2f}x"
    )
    load_after = os.getloadavg()
    print(f"load average {_load(load_before)} before, {_load(load_after)} after (2 cores)")
    if args.json:
        figures: dict[str, Any] = {
            "compiled_nodes_per_s": round(compiled.rate),
            "pure_nodes_per_s": round(interpreted.rate),
            "compiled_vs_pure": round(ratio, 2),
            "push_pop_compiled_pairs_per_s": round(push_pop[0]),
            "push_pop_pure_pairs_per_s": round(push_pop[1]),
            "push_pop_compiled_vs_pure": round(push_pop_ratio, 2),
            "deals": len(codes),
            "node_budget": args.nodes,
            "seed": args.seed,
            "nodes": {engine.name: engine.nodes for engine in engines},
            "same_nodes_and_verdict": same,
            "same_nodes_verdict_and_line": same,
            "engine": status,
            "load_before": _load(load_before),
            "load_after": _load(load_after),
        }
        if args.base:
            figures["base_nodes_per_s"] = round(engines[2].rate)
        print(json.dumps(figures, sort_keys=True))
    return 0


def _load(load: tuple[float, float, float]) -> list[float]:
    return [round(x, 2) for x in load]


if __name__ == "__main__":
    sys.exit(main())
