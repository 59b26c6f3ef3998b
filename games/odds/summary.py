"""The published odds: each rule's sample counted, with its intervals, and its rows for the CSV.

A deal is won, lost or undecided (the budget ran out). Two figures come out of the counts:

- the **bounds**: the share of deals proven winnable (as if every undecided deal were lost)
  and the share not proven lost (as if every one were won). The true rate lies between
  them whatever the undecided deals hide; widened by the Wilson 95% interval of each end,
  they are the published range.
- the **rate over decided deals** with its Wilson 95% interval: right only if the undecided
  deals are won as often as the decided ones, which nothing promises (they are the deals the
  search found hardest), so it is shown beside the range, never instead of it.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from games.analysis.models import Verdict
from games.engine import RULES, GameCode, Rule
from games.engine.solver_stats import wilson
from games.odds import grades, keys
from games.odds.measures import NODE_BUDGET
from games.odds.models import DealResult, Grade


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class RuleOdds:
    """One rule's sample at the budget, counted."""

    rule: str
    deals: int
    winnable: int
    unwinnable: int
    unknown: int
    #: Undecided deals over all deals.
    undecided_share: float | None
    #: Proven winnable over all deals, and not proven lost over all deals.
    bounds: Interval | None
    #: The Wilson 95% interval's low end of the first bound, high end of the second.
    range95: Interval | None
    #: Winnable over decided deals, and its Wilson 95% interval.
    decided_rate: float | None
    decided_rate95: Interval | None
    #: Proven-winnable deals of each grade.
    grades: dict[str, int]
    #: CPU seconds of every solve of the sample together (openings included).
    cpu_seconds: float
    #: The median of the positions each deal's solve entered.
    median_nodes: int | None


def sample(rule: Rule | None = None, node_budget: int = NODE_BUDGET) -> QuerySet[DealResult]:
    """The published sample's measured deals: the development key's, at the budget."""
    rows = DealResult.objects.filter(
        key=keys.published(), node_budget=node_budget, sampled=True
    ).exclude(verdict="")
    return rows if rule is None else rows.filter(rule=rule.letter)


def _share(count: int, of: int) -> float | None:
    return count / of if of else None


def rule_odds(rule: Rule, node_budget: int = NODE_BUDGET) -> RuleOdds:
    """Count one rule's sample: verdicts, bounds, the rate over decided deals, grades."""
    rows = sample(rule, node_budget)
    counts = rows.aggregate(
        deals=Count("pk"),
        winnable=Count("pk", filter=Q(verdict=Verdict.WINNABLE)),
        unwinnable=Count("pk", filter=Q(verdict=Verdict.UNWINNABLE)),
        cpu=Sum("cpu_seconds"),
    )
    deals, won, lost = counts["deals"], counts["winnable"], counts["unwinnable"]
    unknown = deals - won - lost
    decided = won + lost
    by_grade = rows.annotate(grade=grades.expression()).values("grade").annotate(n=Count("pk"))
    graded = {row["grade"]: row["n"] for row in by_grade}
    nodes = list(rows.values_list("nodes", flat=True))
    low, high = _share(won, deals), _share(won + unknown, deals)
    return RuleOdds(
        rule=rule.letter,
        deals=deals,
        winnable=won,
        unwinnable=lost,
        unknown=unknown,
        undecided_share=_share(unknown, deals),
        bounds=Interval(low, high) if low is not None and high is not None else None,
        range95=Interval(wilson(won, deals)[0], wilson(won + unknown, deals)[1]) if deals else None,
        decided_rate=_share(won, decided),
        decided_rate95=Interval(*wilson(won, decided)) if decided else None,
        grades={grade: graded.get(grade, 0) for grade in Grade.values},
        cpu_seconds=round(counts["cpu"] or 0.0, 1),
        median_nodes=int(statistics.median(nodes)) if nodes else None,
    )


def odds(node_budget: int = NODE_BUDGET) -> dict[str, Any]:
    """Every rule's odds, as the API and the page show them."""
    return {
        "node_budget": node_budget,
        "key": "development",
        "rules": [asdict(rule_odds(rule, node_budget)) for rule in RULES.values()],
    }


#: The CSV's columns, in order (docs/api.md says what each holds).
CSV_COLUMNS = (
    "rule",
    "number",
    "code",
    "verdict",
    "nodes",
    "line_length",
    "openings",
    "winning_openings",
    "losing_openings",
    "opening_nodes",
    "grade",
    "node_budget",
    "cpu_seconds",
    "solver",
)


def csv_rows(rule: Rule | None = None, node_budget: int = NODE_BUDGET) -> Iterator[list[Any]]:
    """The sample's deals, one list of `CSV_COLUMNS` values each, by rule and number."""
    fields = [column for column in CSV_COLUMNS if column != "code"]
    rows = (
        sample(rule, node_budget)
        .annotate(grade=grades.expression())
        .order_by("rule", "number")
        .values_list(*fields)
    )
    for values in rows.iterator(chunk_size=2000):
        row = dict(zip(fields, values, strict=True))
        row["code"] = str(GameCode(Rule.from_letter(row["rule"]), row["number"]))
        yield [row[column] for column in CSV_COLUMNS]
