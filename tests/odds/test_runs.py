"""Measuring the sample: chunks on the odds queue, resumable, each deal measured once."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from games.engine import CLASSIC
from games.odds import keys, runs
from games.odds.models import DealResult
from tests.support.odds import measured
from tests.support.tasks import run_queued_tasks

pytestmark = pytest.mark.django_db

BUDGET = 2_000


def queued_chunks() -> list[list[int]]:
    tasks = DBTaskResult.objects.filter(task_path=runs.MEASURE_TASK, status="READY")
    return [args[2] for (args,) in tasks.order_by("enqueued_at").values_list("args_kwargs__args")]


def test_a_range_is_queued_in_chunks_on_the_odds_queue() -> None:
    plan = runs.enqueue_sample(CLASSIC, 5, node_budget=BUDGET, chunk=2)

    assert (plan.wanted, plan.done, plan.waiting, plan.queued, plan.chunks) == (5, 0, 0, 5, 3)
    assert queued_chunks() == [[0, 1], [2, 3], [4]]
    assert set(DBTaskResult.objects.values_list("queue_name", flat=True)) == {"odds"}


def test_a_second_run_queues_nothing_for_deals_measured_or_waiting() -> None:
    runs.enqueue_sample(CLASSIC, 4, node_budget=BUDGET, chunk=2)

    again = runs.enqueue_sample(CLASSIC, 4, node_budget=BUDGET, chunk=2)
    assert (again.waiting, again.queued, again.chunks) == (4, 0, 0)

    assert run_queued_tasks("odds") == 2
    after = runs.enqueue_sample(CLASSIC, 6, node_budget=BUDGET, chunk=2)
    assert (after.done, after.waiting, after.queued) == (4, 0, 2)
    assert queued_chunks() == [[4, 5]]


def test_another_budget_is_another_sample() -> None:
    runs.enqueue_sample(CLASSIC, 2, node_budget=BUDGET)
    run_queued_tasks("odds")

    plan = runs.enqueue_sample(CLASSIC, 2, node_budget=BUDGET * 2)

    assert (plan.done, plan.queued) == (0, 2)


def test_a_deal_measured_for_a_daily_joins_the_sample_without_a_solve() -> None:
    row = measured(1, sampled=False, node_budget=BUDGET)

    plan = runs.enqueue_sample(CLASSIC, 2, node_budget=BUDGET)

    assert (plan.done, plan.queued) == (1, 1)
    row.refresh_from_db()
    assert row.sampled


def test_a_chunk_writes_each_deal_once_with_its_measures() -> None:
    assert runs.measure_deals("development", "C", [47, 0], BUDGET) == 2
    assert runs.measure_deals("development", "C", [47, 0], BUDGET) == 0  # both done

    row = DealResult.objects.get(number=47)
    assert (row.key, row.rule, row.node_budget, row.sampled) == (
        keys.published(),
        "C",
        BUDGET,
        True,
    )
    assert (row.verdict, row.openings, row.winning_openings, row.losing_openings) == (
        "winnable",
        4,
        3,
        1,
    )
    assert row.line_length and row.nodes and row.cpu_seconds > 0 and len(row.solver) == 12
    assert DealResult.objects.count() == 2


def test_the_command_queues_every_rule_unless_told(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("winnability", "--deals", "3", "--nodes", str(BUDGET))
    call_command("winnability", "--deals", "3", "--nodes", str(BUDGET), "--rule", "U")

    out = capsys.readouterr().out
    assert "C: 3 deals, 0 measured, 0 waiting, 3 queued now in 1 chunks" in out
    assert "U: 3 deals, 0 measured, 3 waiting, 0 queued now in 0 chunks" in out
    assert len(queued_chunks()) == 4
