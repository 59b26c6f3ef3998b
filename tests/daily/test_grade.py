"""The daily deal's grade: worked out by a task on the first ask, shown once known."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from games import daily
from games.engine import ALASKA, CLASSIC, Rule
from games.odds import grades, keys
from games.odds.measures import NODE_BUDGET
from games.odds.models import DealResult
from tests.daily.helpers import DAY
from tests.support.tasks import run_queued_tasks

pytestmark = pytest.mark.django_db

GRADE_TASK = "games.analysis.tasks.grade_deal"


def today(rule: Rule) -> dict[str, object]:
    answer = APIClient().get("/api/v1/daily", {"rule": rule.letter})
    assert answer.status_code == 200
    return dict(answer.json())


@pytest.mark.parametrize("rule", [CLASSIC, ALASKA], ids=["classic", "alaska"])
def test_the_grade_is_worked_out_once_then_shown(clock: time_machine.Traveller, rule: Rule) -> None:
    assert today(rule)["grade"] is None
    assert today(rule)["grade"] is None  # asked again: still one task
    assert DBTaskResult.objects.filter(task_path=GRADE_TASK, queue_name="analysis").count() == 1

    assert run_queued_tasks() == 1
    shown = today(rule)["grade"]

    deal = daily.deal_for(DAY, rule=rule)
    row = DealResult.objects.annotate(grade=grades.expression()).get(
        key=keys.deployment(), rule=rule.letter, number=deal.number, node_budget=NODE_BUDGET
    )
    assert row.verdict == "winnable" and not row.sampled
    assert shown == row.grade and shown in {"easy", "medium", "hard"}
    assert DBTaskResult.objects.filter(task_path=GRADE_TASK).count() == 1


def test_a_grade_lost_with_its_worker_is_asked_for_again(clock: time_machine.Traveller) -> None:
    today(CLASSIC)
    DBTaskResult.objects.all().delete()  # the worker died with it

    clock.shift(timedelta(minutes=9))
    today(CLASSIC)
    assert not DBTaskResult.objects.exists()

    clock.shift(timedelta(minutes=2))
    assert today(CLASSIC)["grade"] is None
    assert DBTaskResult.objects.filter(task_path=GRADE_TASK).count() == 1
    run_queued_tasks()
    assert today(CLASSIC)["grade"] in {"easy", "medium", "hard"}
