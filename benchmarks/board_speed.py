"""How fast the analysis board judges a position: ``python -m benchmarks.board_speed [--json]``.

Takes ``--positions`` positions (200) from lost games: seeded deals (Classic, the development
deal key) played by a careless player (seeded random legal moves, ``--moves`` of them or
until none is left, as ``benchmarks.analysis_speed`` plays) and kept when the solver proves
the last position lost; from each such game ``--per-game`` versions are drawn (seeded). Each
position then has every legal move judged exactly as a task worker does
(``games.analysis.judging.judge_moves`` with ``BOARD_MOVE_NODES`` solver positions per
search), and the CPU time it took (``time.process_time``: the machine is shared) is the
figure: p50, p95 and the slowest, with how many moves were judged and how many stayed
``unknown``. The load average before and after is printed beside them. ``--json`` ends with
one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import Counter
from typing import Any

import games.engine
from games.analysis.judging import judge_moves
from games.engine import DEAL_COUNT, DEV_DEAL_KEY, GameCode, Rule
from games.engine import Game as EngineGame
from games.engine.solver import solve

#: The solver positions that prove a careless game's last position lost (as the tests' games).
LOST_PROOF_NODES = 5_000
#: BOARD_MOVE_NODES' default (yukon_site/settings.py): what a worker spends per search.
DEFAULT_MOVE_NODES = 20_000


def lost_game_positions(chooser: random.Random, moves: int) -> list[EngineGame] | None:
    """The positions of one careless game (the deal first), or None when it was not lost."""
    code = GameCode(Rule.from_letter("C"), chooser.randrange(DEAL_COUNT))
    engine = EngineGame.new(code, DEV_DEAL_KEY)
    positions = [engine.copy()]
    for _ in range(moves):
        legal = sorted(engine.legal_moves, key=str)
        if not legal:
            break
        engine.play(chooser.choice(legal))
        positions.append(engine.copy())
    if solve(engine, node_budget=LOST_PROOF_NODES).verdict != "unwinnable":
        return None
    return positions


def sample(count: int, per_game: int, moves: int, seed: int) -> list[EngineGame]:
    """`count` positions of lost games, `per_game` distinct versions of each (seeded)."""
    chooser = random.Random(seed)
    taken: list[EngineGame] = []
    while len(taken) < count:
        positions = lost_game_positions(chooser, moves)
        if positions is None:
            continue
        playable = [p for p in positions if p.legal_moves]
        taken.extend(chooser.sample(playable, min(per_game, len(playable), count - len(taken))))
    return taken


def percentile(values: list[float], p: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def measure(positions: list[EngineGame], budget: int) -> dict[str, Any]:
    seconds, verdicts, lines = [], Counter[str](), 0
    for engine in positions:
        found: dict[str, str] = {}
        line: list[str] = []
        started = time.process_time()
        judge_moves(engine, budget, found, line)
        seconds.append(time.process_time() - started)
        verdicts.update(found.values())
        lines += bool(line)
    return {
        "positions": len(positions),
        "move_nodes": budget,
        "cpu_s_p50": round(percentile(seconds, 50), 4),
        "cpu_s_p95": round(percentile(seconds, 95), 4),
        "cpu_s_max": round(max(seconds), 4),
        "cpu_s_mean": round(statistics.fmean(seconds), 4),
        "moves_judged": sum(verdicts.values()),
        "verdicts": dict(verdicts),
        "with_winning_line": lines,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="positions to judge")
    parser.add_argument("--per-game", type=int, default=5, help="positions of each lost game")
    parser.add_argument("--moves", type=int, default=40, help="careless moves before resigning")
    parser.add_argument("--seed", type=int, default=1, help="the deals and the moves")
    parser.add_argument("--nodes", type=int, default=DEFAULT_MOVE_NODES, help="BOARD_MOVE_NODES")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    positions = sample(args.positions, args.per_game, args.moves, args.seed)
    load_before = os.getloadavg()
    figures = measure(positions, args.nodes)
    load_after = os.getloadavg()
    figures["engine"] = "compiled" if games.engine.compiled() else "interpreted"
    figures["load_before"] = [round(value, 2) for value in load_before]
    figures["load_after"] = [round(value, 2) for value in load_after]
    rows = [("p50", figures["cpu_s_p50"]), ("p95", figures["cpu_s_p95"]),
            ("slowest", figures["cpu_s_max"]), ("mean", figures["cpu_s_mean"])]  # fmt: skip
    print(f"every legal move judged, {figures['positions']} positions of lost games, "
          f"{args.nodes} solver positions per search, {figures['engine']} engine "
          "(CPU seconds per position)")  # fmt: skip
    for name, value in rows:
        print(f"  {name:>7}  {value:8.4f}")
    print(f"moves judged: {figures['moves_judged']}, verdicts: {figures['verdicts']}")
    print(f"positions with a winning line: {figures['with_winning_line']}")
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
