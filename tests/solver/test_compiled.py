"""The compiled solver and its interpreted sources give identical answers, node for node.

A fixed sample under node budgets (never time budgets, which would depend on
the speed): deals of every rule and late positions where take-backs matter.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import DEAL_COUNT, DEV_DEAL_KEY, RULES, Game, GameCode, native, private_form
from games.engine.solver import solve
from tests.engine.both_engines import require_both_engines
from tests.solver.test_soundness import late_position


def sample() -> list[Game]:
    """Four deals of each rule, and twelve late positions."""
    rng = random.Random(2024)
    deals = [
        Game.new(GameCode(rule, rng.randrange(DEAL_COUNT)), DEV_DEAL_KEY)
        for rule in RULES.values()
        for _ in range(4)
    ]
    return deals + [late_position(rng) for _ in range(12)]


def answer(result: Any) -> tuple[str, list[str], str | None, int]:
    return result.verdict, [str(move) for move in result.line], result.reason, result.nodes


def test_compiled_and_interpreted_solvers_agree_on_a_fixed_sample() -> None:
    require_both_engines()
    interpreted = native.pure("solver")
    verdicts = set()
    for game in sample():
        ours = answer(solve(game, node_budget=15_000))
        theirs = answer(interpreted.solve(private_form(game), node_budget=15_000))
        assert ours == theirs, private_form(game)
        verdicts.add(ours[0])
    assert verdicts == {"winnable", "unwinnable", "unknown"}  # the sample reaches all three
