"""Every legal move of a position judged by the solver: does the position after it keep the
win? The analysis board's work (games.analysis.board), on the engine alone, so the benchmark
(benchmarks.board_speed) measures exactly what the task workers run.

The position is solved first within the same budget: a lost position loses with every move
(no move makes a lost position winnable), and a winning line's first move keeps the win;
only the other moves are solved one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from games.engine import Game
from games.engine.lines import without_loops
from games.engine.solver import solve

type MoveVerdict = Literal["keeps-win", "loses-win", "unknown"]

#: A move's verdict from the solver's verdict on the position it leads to.
VERDICT_OF_CHILD: dict[str, MoveVerdict] = {
    "winnable": "keeps-win",
    "unwinnable": "loses-win",
    "unknown": "unknown",
}


def judge_moves(
    engine: Game,
    budget: int,
    found: dict[str, str],
    line: list[str],
    write: Callable[[], None] | None = None,
) -> None:
    """Fill `found` (move -> verdict) for every legal move of `engine` not in it yet, each
    search within `budget` solver positions, and `line` with a winning line once one is
    found (if empty); `write()` after each new verdict."""
    whole = solve(engine, node_budget=budget)
    legal = list(engine.legal_moves)
    if whole.verdict == "unwinnable":
        found.update({str(move): "loses-win" for move in legal})
    elif whole.verdict == "winnable" and whole.line:
        kept = without_loops(engine, whole.line)
        found[str(kept[0])] = "keeps-win"
        if not line:
            line.extend(str(move) for move in kept)
    if write is not None:
        write()
    for move in legal:
        if str(move) in found:
            continue
        child = engine.copy()
        child.play(move)
        result = solve(child, node_budget=budget)
        found[str(move)] = VERDICT_OF_CHILD[result.verdict]
        if result.verdict == "winnable" and not line:
            line.extend(str(step) for step in without_loops(engine, [move, *result.line]))
        if write is not None:
            write()
