"""A Yukon solver: can this position still be won, and how?

The solver sees everything, face-down cards included, so it runs on the server
only. It answers ``winnable`` with a line of legal moves, ``unwinnable`` only
when its search was exhaustive (every reduction it makes is proven in
``docs/solver.md``), and ``unknown`` with the budget that ran out otherwise.

>>> from games.engine import DEV_DEAL_KEY, Game, GameCode
>>> game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
>>> result = solve(game)
>>> result.verdict, [str(move) for move in result.line]
('winnable', ['KS>F'])
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import CARDS
from .game import Game
from .moves import FOUNDATION, MOVES, Move
from .rules import Rule
from .serialization import read_private
from .solver_core import DEFAULT_TABLE_MB, FOUND, BudgetExceeded, Tables, build_tables, search

#: What the solver concluded.
type Verdict = Literal["winnable", "unwinnable", "unknown"]
#: Why the search stopped without a conclusion (``memory-budget``: the C search's table
#: reached its memory bound, :func:`set_table_memory`).
type StopReason = Literal["node-budget", "time-budget", "memory-budget"]

#: The C search's table bound, MiB: :func:`set_table_memory` (the site's ``SOLVER_TABLE_MB``).
_table_mb = [DEFAULT_TABLE_MB]


def set_table_memory(megabytes: int) -> None:
    """Bound the memory of every later search's table (the C search's; MiB).

    The site calls it once at start with ``settings.SOLVER_TABLE_MB``: the engine
    imports nothing from Django, so the setting arrives as a plain number.
    """
    if megabytes < 1:
        raise ValueError("the solver's table needs at least 1 MiB")
    _table_mb[0] = megabytes


def table_memory() -> int:
    """The bound :func:`set_table_memory` set (MiB), which ``solve`` uses unless told."""
    return _table_mb[0]


@dataclass(frozen=True)
class SolveResult:
    """The verdict on a position, with a winning line when there is one."""

    verdict: Verdict
    #: Moves from the position to a win (empty unless ``winnable``).
    line: list[Move] = field(default_factory=list)
    #: Which budget ran out, for ``unknown``.
    reason: StopReason | None = None
    #: Positions the search entered.
    nodes: int = 0
    #: Wall-clock time spent.
    seconds: float = 0.0

    @property
    def decided(self) -> bool:
        """Whether the verdict is ``winnable`` or ``unwinnable``."""
        return self.verdict != "unknown"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe form (moves in the notation of ``docs/notation.md``)."""
        return {
            "verdict": self.verdict,
            "line": [str(move) for move in self.line],
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


@functools.cache
def rule_tables(rule: Rule) -> Tables:
    """The solver's lookup tables for a building rule (any :class:`Rule`)."""

    def fits(card: int, target: int) -> bool:
        return rule.builds_on(CARDS[card], CARDS[target])

    return build_tables(fits)


def solve(
    game_or_position: Game | Mapping[str, Any],
    *,
    node_budget: int | None = None,
    time_budget: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    memory_mb: int | None = None,
    interpreted: bool = False,
) -> SolveResult:
    """Decide whether a position can be won; with no budget the search runs to the end.

    ``game_or_position`` is a :class:`Game` or its private form
    (:func:`.serialization.private_form`). The game is not changed. ``clock`` measures the time
    budget and the result's seconds: wall-clock time, or for example
    ``time.process_time`` to give each position the same CPU on a shared machine.
    ``memory_mb`` bounds the C search's table (default: :func:`set_table_memory`);
    ``interpreted`` runs the reference search of ``solver_core`` instead of the C one
    (the same positions, the same verdict and line, slower).
    """
    game = (
        game_or_position if isinstance(game_or_position, Game) else read_private(game_or_position)
    )
    started = clock()
    if game.won:
        return SolveResult("winnable", [], None, 0, clock() - started)
    columns, down, foundations = game.layout()
    try:
        steps, nodes = search(
            rule_tables(game.rule),
            columns,
            down,
            foundations,
            node_budget=node_budget,
            time_budget=time_budget,
            clock=clock,
            memory_mb=table_memory() if memory_mb is None else memory_mb,
            interpreted=interpreted,
        )
    except BudgetExceeded as stop:
        reason: StopReason = (
            "node-budget"
            if stop.reason == "node-budget"
            else "memory-budget"
            if stop.reason == "memory-budget"
            else "time-budget"
        )
        return SolveResult("unknown", [], reason, stop.nodes, clock() - started)
    seconds = clock() - started
    if steps is None:
        return SolveResult("unwinnable", [], None, nodes, seconds)
    line = [MOVES[card * 8 + (FOUNDATION if dest == FOUND else dest) + 1] for card, dest in steps]
    return SolveResult("winnable", line, None, nodes, seconds)
