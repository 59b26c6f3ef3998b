"""Difficulty grades of proven-winnable deals, from two of the solver's measures.

- **Search effort**: the positions the solver entered before it found a win. A deal won in
  about as many positions as its line has macro moves is won by the search's first choices
  (the order a careful player would try too); thousands of positions mean its first ideas
  lead nowhere and it had to back up again and again.
- **Forgiving opening**: how many of the legal opening moves are proven, each within a tenth
  of the budget, to keep the deal winnable. Where every opening keeps the win, a first
  mistake costs nothing; where fewer than half do, most first moves lose or are too hard to
  tell.

easy: effort at most `easy_nodes` and every opening keeps the win; hard: effort above
`hard_nodes`, or fewer than half of the openings proven to keep the win; medium: the rest.
The thresholds are per rule (an Alaska search is longer than a Classic one for the same
feel), drawn from the published sample so each grade holds about a third of its
proven-winnable deals: docs/solver.md "Difficulty grades" gives the distribution, and
`manage.py winnability_figures` prints it again. The length of the line found is not
used: depth-first search returns its first line, not a shortest one, so its length says
more about the search's detours than about the deal.

The grade is a SQL expression over a row's measures (`condition`, `expression`), the one
definition for picking a deal of a grade and for reading a deal's grade.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Case, CharField, F, Q, Value, When

from games.analysis.models import Verdict
from games.odds.models import Grade


@dataclass(frozen=True)
class Thresholds:
    """Positions (at games.odds.measures.NODE_BUDGET) bounding the easy and the hard deals."""

    easy_nodes: int
    hard_nodes: int


#: Per rule letter, from the sample (docs/solver.md "Difficulty grades").
THRESHOLDS: dict[str, Thresholds] = {
    "C": Thresholds(easy_nodes=64, hard_nodes=3_256),
    "R": Thresholds(easy_nodes=60, hard_nodes=200),
    "U": Thresholds(easy_nodes=40, hard_nodes=200),
    "A": Thresholds(easy_nodes=1_441, hard_nodes=7_305),
}


def fit(won: Sequence[tuple[int, int, int]]) -> Thresholds:
    """The thresholds a rule's proven-winnable deals give: (nodes, openings, winning openings)
    each. `hard_nodes` is the upper tercile of the positions; `easy_nodes` the fewest
    positions that still leave a third of the deals easy (easy also asks every opening to
    keep the win, so it lies above the lower tercile)."""
    nodes = sorted(deal[0] for deal in won)
    hard_nodes = nodes[max(0, math.ceil(len(nodes) * 2 / 3) - 1)]
    calm = sorted(n for n, openings, winning in won if winning == openings and n <= hard_nodes)
    third = math.ceil(len(nodes) / 3)
    easy_nodes = calm[third - 1] if len(calm) >= third else hard_nodes
    return Thresholds(easy_nodes=easy_nodes, hard_nodes=hard_nodes)


def condition(rule: str, grade: str) -> Q:
    """The rows of `rule` that are proven winnable and of `grade`."""
    limits = THRESHOLDS[rule]
    every_opening_wins = Q(winning_openings=F("openings"))
    most_openings_unproven = Q(openings__gt=F("winning_openings") * 2)
    hard = Q(nodes__gt=limits.hard_nodes) | most_openings_unproven
    easy = Q(nodes__lte=limits.easy_nodes) & every_opening_wins & ~hard
    chosen = {Grade.EASY: easy, Grade.MEDIUM: ~easy & ~hard, Grade.HARD: hard}[Grade(grade)]
    return Q(rule=rule, verdict=Verdict.WINNABLE) & chosen


def expression() -> Case:
    """A row's grade: its grade if it is proven winnable, else null (`.annotate(grade=...)`)."""
    return Case(
        *(
            When(condition(rule, grade), then=Value(grade))
            for rule in THRESHOLDS
            for grade in Grade.values
        ),
        default=None,
        output_field=CharField(),
    )
