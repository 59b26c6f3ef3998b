"""`POST /api/v1/games` with a difficulty: a proven-winnable deal of that grade, or a clear no."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import deals
from games.engine import CLASSIC, GameCode
from games.engine.solver import solve
from games.odds import grades, runs
from games.odds.measures import NODE_BUDGET
from games.odds.models import DealResult
from tests.support.odds import measured
from tests.support.play import new_game

pytestmark = pytest.mark.django_db

#: Classic deals whose measures cost a few seconds together, of every grade.
DEALS = [0, 1, 2, 3, 4, 5, 7, 8, 12, 13, 17, 47]


def grade_of(number: int) -> str | None:
    row = DealResult.objects.filter(rule="C", number=number).annotate(grade=grades.expression())
    grade: str | None = row.values_list("grade", flat=True).get()
    return grade


def test_each_difficulty_deals_a_proven_winnable_deal_of_its_grade(alice_api: APIClient) -> None:
    runs.measure_deals("deployment", "C", DEALS, NODE_BUDGET)
    present = {grade for number in DEALS if (grade := grade_of(number)) is not None}
    assert present == {"easy", "medium", "hard"}

    for difficulty in sorted(present):
        for _ in range(3):
            state = new_game(alice_api, rule="C", difficulty=difficulty)

            code = GameCode.parse(state["code"])
            assert code.rule == CLASSIC and code.number in DEALS
            assert grade_of(code.number) == difficulty
            assert solve(deals.new_game(code), node_budget=NODE_BUDGET).verdict == "winnable"


def test_no_deal_of_that_grade_yet_is_a_503(alice_api: APIClient) -> None:
    measured(0, rule="U", sampled=False, nodes=10)  # easy, but a daily's: never dealt
    measured(1, rule="U", key="0123456789abcdef", nodes=10)  # nor another key's deal
    measured(2, rule="U", node_budget=1_000, nodes=10)  # nor one of another budget

    answer = alice_api.post("/api/v1/games", {"rule": "U", "difficulty": "easy"}, format="json")

    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "no-graded-deal"


def test_a_difficulty_with_a_code_or_an_unknown_one_is_a_400(alice_api: APIClient) -> None:
    for body in (
        {"code": "YU1-C-AAAAAAB", "difficulty": "easy"},
        {"rule": "C", "difficulty": "brutal"},
    ):
        answer = alice_api.post("/api/v1/games", body, format="json")

        assert answer.status_code == 400
        error = answer.json()["error"]
        assert error["code"] == "invalid-request" and "difficulty" in error["fields"]
