"""A solver's winning line for a closed daily deal, found once on a task worker and kept."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import daily, deals, events
from games.analysis.models import DealLine
from games.engine import GameCode
from games.engine.solver import solve as solve_position


def for_closed_day(deal: daily.DayDeal) -> dict[str, Any]:
    """The day's line, or `pending` while a worker looks for it (queued on first ask)."""
    code = str(daily.code_of(deal))
    with transaction.atomic():
        line, created = DealLine.objects.get_or_create(code=code)
        if created:
            events.happened(events.DealLineWanted(code))
    if not line.verdict:
        return {"status": "pending", "verdict": None, "moves": []}
    return {"status": "done", "verdict": line.verdict, "moves": line.moves}


def solve(code: str) -> None:
    """The same node budget that chose the daily deal, so its line is found again."""
    result = solve_position(deals.new_game(GameCode.parse(code)), node_budget=daily.node_budget())
    DealLine.objects.update_or_create(
        code=code,
        defaults={
            "verdict": result.verdict,
            "moves": [str(move) for move in result.line],
            "nodes": result.nodes,
        },
    )
