"""A task's row deleted while the task runs (results pruned, a test's flush): recording its
result fails, which ended django-tasks-db's worker loop (and the process) for good."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from games.analysis import tasks
from games.analysis.management.commands.worker import SteadyWorker
from tests.support.play import winning_line

pytestmark = pytest.mark.django_db(transaction=True)  # the worker commits as it does live


def claimed_then_deleted() -> DBTaskResult[..., object]:
    """A task claimed by a worker, whose row is then deleted (before its result is written)."""
    code, _ = winning_line()
    row = DBTaskResult.objects.get(pk=tasks.solve_deal.enqueue(code).id)
    row.claim("steady")
    DBTaskResult.objects.filter(pk=row.pk).delete()
    return row


def worker_of(kind: type[Worker]) -> Worker:
    return kind(
        queue_names=["analysis"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="steady",
        excluded_queue_names=[],
    )


def test_the_librarys_worker_raises_out_of_its_loop() -> None:
    """Why SteadyWorker exists: if this stops raising, the library fixed it."""
    with pytest.raises(DatabaseError):
        worker_of(Worker).run_task(claimed_then_deleted())


def test_the_steady_worker_drops_that_result_and_serves_on() -> None:
    steady = worker_of(SteadyWorker)
    steady.run_task(claimed_then_deleted())

    code, _ = winning_line()
    kept = tasks.solve_deal.enqueue(code)
    steady.run()  # batch: every ready task, then returns

    assert DBTaskResult.objects.get(pk=kept.id).status == "SUCCESSFUL"
