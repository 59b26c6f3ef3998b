"""Difficulty grades: the conditions at their thresholds, and thresholds fitted to a sample."""

from __future__ import annotations

import pytest

from games.odds import grades
from games.odds.grades import Thresholds, fit
from games.odds.models import DealResult
from tests.support.odds import measured

pytestmark = pytest.mark.django_db


def grade(row: DealResult) -> str | None:
    found = DealResult.objects.filter(pk=row.pk).annotate(grade=grades.expression())
    value: str | None = found.values_list("grade", flat=True).get()
    return value


def test_each_grade_at_its_thresholds() -> None:
    limits = grades.THRESHOLDS["C"]
    cases = {
        "easy": measured(0, nodes=limits.easy_nodes, openings=7, winning_openings=7),
        "medium": measured(1, nodes=limits.easy_nodes + 1, openings=7, winning_openings=7),
        "medium ": measured(2, nodes=limits.hard_nodes, openings=8, winning_openings=4),
        "hard": measured(3, nodes=limits.hard_nodes + 1, openings=7, winning_openings=7),
        "hard ": measured(4, nodes=10, openings=7, winning_openings=3),
    }
    for expected, row in cases.items():
        assert grade(row) == expected.strip(), row

    # Fast, but one opening is not proven to keep the win: not easy.
    assert grade(measured(5, nodes=10, openings=7, winning_openings=6)) == "medium"


def test_only_a_winnable_deal_has_a_grade() -> None:
    assert grade(measured(0, "unwinnable")) is None
    assert grade(measured(1, "unknown")) is None


def test_grades_are_per_rule() -> None:
    alaska = grades.THRESHOLDS["A"]
    row = measured(0, rule="A", nodes=alaska.easy_nodes, openings=3, winning_openings=3)
    assert grade(row) == "easy"


def test_fitted_thresholds_split_the_won_deals_in_thirds() -> None:
    won = [
        (50, 8, 8),
        (52, 8, 8),
        (60, 6, 5),  # fast, one opening unproven: medium at best
        (70, 7, 7),
        (90, 7, 7),
        (400, 7, 7),
        (5_000, 9, 9),
        (9_000, 9, 9),
        (80_000, 6, 6),
    ]

    assert fit(won) == Thresholds(easy_nodes=70, hard_nodes=400)


def test_fitting_a_sample_with_too_few_calm_deals_makes_easy_reach_hard() -> None:
    won = [(50, 8, 2), (60, 8, 3), (70, 7, 7)]

    assert fit(won) == Thresholds(easy_nodes=60, hard_nodes=60)
