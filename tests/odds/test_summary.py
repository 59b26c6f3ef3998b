"""The published odds: what is counted, the bounds, and Wilson intervals against known values."""

from __future__ import annotations

import pytest

from games.engine import ALASKA, CLASSIC, RUSSIAN
from games.odds.summary import odds, rule_odds
from tests.support.odds import HARD, measured

pytestmark = pytest.mark.django_db


def test_a_rule_counts_its_sample_and_nothing_else() -> None:
    for number in range(6):
        measured(number)
    measured(6, "unwinnable")
    measured(7, "unwinnable")
    measured(8, "unknown")
    measured(9, "unknown")
    measured(10, sampled=False)  # a daily's grade: not in the sample
    measured(11, key="0123456789abcdef")  # another key's deal
    measured(12, node_budget=1_000)  # another budget
    measured(13, "")  # queued, not measured yet
    measured(14, rule="U")

    found = rule_odds(CLASSIC)

    assert (found.deals, found.winnable, found.unwinnable, found.unknown) == (10, 6, 2, 2)
    assert found.undecided_share == pytest.approx(0.2)
    assert found.decided_rate == pytest.approx(0.75)
    assert found.bounds is not None
    assert (found.bounds.low, found.bounds.high) == pytest.approx((0.6, 0.8))
    assert found.cpu_seconds == pytest.approx(5.0)


def test_the_range_widens_each_bound_by_its_wilson_interval() -> None:
    for number in range(6):
        measured(number)
    measured(6, "unwinnable")
    measured(7, "unwinnable")
    measured(8, "unknown")
    measured(9, "unknown")

    found = rule_odds(CLASSIC)

    # Wilson 95% of 6/10 is 0.3127-0.8318, of 8/10 0.4902-0.9433, of 6/8 0.4093-0.9285.
    assert found.range95 is not None and found.decided_rate95 is not None
    assert round(found.range95.low, 4) == 0.3127
    assert round(found.range95.high, 4) == 0.9433
    assert (round(found.decided_rate95.low, 4), round(found.decided_rate95.high, 4)) == (
        0.4093,
        0.9285,
    )


@pytest.mark.parametrize(
    ("won", "lost", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
        # method 3 (the score interval without continuity correction).
        (81, 182, 0.2553, 0.3662),
        (15, 133, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 28, 0.0061, 0.1718),
        (29, 0, 0.8830, 1.0),
    ],
)
def test_the_decided_rate_interval_is_wilsons(won: int, lost: int, low: float, high: float) -> None:
    for number in range(won):
        measured(number, rule="U")
    for number in range(won, won + lost):
        measured(number, "unwinnable", rule="U")

    found = rule_odds(RUSSIAN)

    assert found.decided_rate95 is not None
    assert (round(found.decided_rate95.low, 4), round(found.decided_rate95.high, 4)) == (low, high)
    assert found.range95 is not None  # nothing undecided: the range is the same interval
    assert (round(found.range95.low, 4), round(found.range95.high, 4)) == (low, high)


def test_a_rule_with_no_deal_measured_says_so() -> None:
    found = rule_odds(ALASKA)

    assert (found.deals, found.bounds, found.range95, found.decided_rate) == (0, None, None, None)
    assert found.grades == {"easy": 0, "medium": 0, "hard": 0}


def test_grades_are_counted_among_the_winnable_deals() -> None:
    measured(0)
    measured(1)
    measured(2, **HARD)
    measured(3, "unwinnable")

    assert rule_odds(CLASSIC).grades == {"easy": 2, "medium": 0, "hard": 1}


def test_every_rule_is_listed_in_the_rules_order() -> None:
    assert [entry["rule"] for entry in odds()["rules"]] == ["C", "R", "U", "A"]
