"""What the solver tells about a deal's opening: its verdict, the line it found, the search's
effort, and how many opening moves keep the win. The engine only (no Django), so the same
measures come out of a task, a test or a script.

Every budget counts positions, not seconds: a deal's measures are the same on every machine
(for the same engine sources, `solver_version`), whatever the load.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from games.engine import Game, native
from games.engine.solver import Verdict, solve

#: Solver positions per deal of the published sample and of every grade (the budget the
#: thresholds of games.odds.grades were drawn at).
NODE_BUDGET = 500_000
#: Each opening move's position gets this share of the deal's budget (1/10): enough to decide
#: most of them, and the openings together cost about what the deal itself may.
OPENING_BUDGET_SHARE = 10


@dataclass(frozen=True)
class Measures:
    """A deal's measures; the opening counts and the line are known for a winnable deal only."""

    verdict: Verdict
    nodes: int
    line_length: int | None = None
    openings: int | None = None
    winning_openings: int | None = None
    losing_openings: int | None = None
    opening_nodes: int = 0
    cpu_seconds: float = 0.0


def solver_version() -> str:
    """The engine sources' digest: the same digest gives the same measures, node for node."""
    return native.sources_digest()[:12]


def measure(game: Game, node_budget: int) -> Measures:
    """Solve `game` within `node_budget` positions; when it is winnable, solve the position
    after each other legal move than the line's first within a tenth of that
    (`OPENING_BUDGET_SHARE`). Seconds are CPU seconds of this process."""
    started = time.process_time()
    result = solve(game, node_budget=node_budget)
    if result.verdict != "winnable":
        return Measures(result.verdict, result.nodes, cpu_seconds=time.process_time() - started)
    winning = losing = opening_nodes = 0
    moves = list(game.legal_moves)
    for move in moves:
        if move == result.line[0]:  # the rest of the line wins from there
            winning += 1
            continue
        after = game.copy()
        after.play(move)
        found = solve(after, node_budget=max(1, node_budget // OPENING_BUDGET_SHARE))
        opening_nodes += found.nodes
        winning += found.verdict == "winnable"
        losing += found.verdict == "unwinnable"
    return Measures(
        verdict="winnable",
        nodes=result.nodes,
        line_length=len(result.line),
        openings=len(moves),
        winning_openings=winning,
        losing_openings=losing,
        opening_nodes=opening_nodes,
        cpu_seconds=time.process_time() - started,
    )
