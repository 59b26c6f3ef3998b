"""Measured deals for the odds tests: rows as a task would write them, without the solving."""

from __future__ import annotations

from typing import Any

from games.odds import keys
from games.odds.measures import NODE_BUDGET
from games.odds.models import DealResult

#: Measures of a deal won at once with every opening keeping the win (easy under Classic).
EASY: dict[str, Any] = dict(nodes=50, line_length=95, openings=8, winning_openings=8)
#: Won after a long search (hard under every rule).
HARD: dict[str, Any] = dict(nodes=400_000, line_length=120, openings=6, winning_openings=6)


def measured(
    number: int,
    verdict: str = "winnable",
    *,
    rule: str = "C",
    key: str | None = None,
    node_budget: int = NODE_BUDGET,
    sampled: bool = True,
    **measures: Any,
) -> DealResult:
    """A sample row of the development key (the deployment's too, under the test settings)."""
    if verdict == "winnable":
        measures = {**EASY, "losing_openings": 0, **measures}
    else:
        measures = {"nodes": node_budget if verdict == "unknown" else 1, **measures}
    return DealResult.objects.create(
        key=key or keys.published(),
        rule=rule,
        number=number,
        node_budget=node_budget,
        verdict=verdict,
        sampled=sampled,
        cpu_seconds=0.5,
        solver="test",
        **measures,
    )
