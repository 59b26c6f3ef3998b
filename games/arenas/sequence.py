"""An arena's secret sequence of deals: proven-winnable deals of the deployment's key, easy
first, then medium, then hard (games.odds.grades), chosen once when the arena is made.

Each arena draws its own deals from the sample measured with the deployment's key (never
published: games.odds.keys), so neither its numbers nor the order can be looked up.
"""

from __future__ import annotations

import random
from datetime import timedelta

from games.engine import RULES, GameCode
from games.odds import grades, keys
from games.odds.graded import NoGradedDeal
from games.odds.measures import NODE_BUDGET
from games.odds.models import DealResult, Grade

#: Deals per minute of arena: more than anyone wins (a fast win takes about three minutes).
DEALS_PER_MINUTE = 0.5
MIN_DEALS = 10

_draw = random.SystemRandom()


def length_for(duration: timedelta) -> int:
    """How many deals an arena of `duration` gets."""
    return max(MIN_DEALS, round(duration.total_seconds() / 60 * DEALS_PER_MINUTE))


def _numbers(rule: str, grade: str, count: int) -> list[int]:
    rows = DealResult.objects.filter(
        key=keys.deployment(), node_budget=NODE_BUDGET, sampled=True
    ).filter(grades.condition(rule, grade))
    numbers = list(rows.values_list("number", flat=True).distinct())
    _draw.shuffle(numbers)
    return numbers[:count]


def choose(rule: str, duration: timedelta) -> list[str]:
    """The codes of a new arena's sequence: a third of each grade, in rising difficulty. A
    grade short of deals is made up by its neighbours; a rule with no graded deal at all
    cannot hold an arena (`no-graded-deal`)."""
    total = length_for(duration)
    wanted = [total // 3, total // 3, total - 2 * (total // 3)]
    chosen: list[int] = []
    pool: dict[str, list[int]] = {grade: _numbers(rule, grade, total) for grade in Grade.values}
    for grade, count in zip(Grade.values, wanted, strict=True):
        taken = [n for n in pool[grade] if n not in chosen][:count]
        chosen.extend(taken)
    if len(chosen) < total:  # a short grade: fill from every grade, keeping the order easy→hard
        spare = [n for grade in Grade.values for n in pool[grade] if n not in chosen]
        chosen.extend(spare[: total - len(chosen)])
    if not chosen:
        raise NoGradedDeal(f"No {RULES[rule].name} deal has been proven winnable yet.")
    return [str(GameCode(RULES[rule], number)) for number in chosen]
