"""Running the queued background tasks in tests, through django-tasks-db's own worker code.

The worker's loop closes database connections between tasks, which a test's transaction
cannot allow; this claims and runs each ready task the way that loop does, in order.
"""

from __future__ import annotations

from django.db import transaction
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

TEST_WORKER_ID = "test-worker"


def run_next_task(queues: str = "assists,analysis") -> bool:
    """Run the first ready task of `queues`, as the worker would; False when none is ready."""
    names = queues.split(",")
    worker = Worker(
        queue_names=names,
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=TEST_WORKER_ID,
        excluded_queue_names=[],
    )
    with transaction.atomic():
        task = DBTaskResult.objects.ready().filter(queue_name__in=names).get_locked()
        if task is None:
            return False
        task.claim(TEST_WORKER_ID)
    worker.run_task(task)
    task.refresh_from_db()
    assert task.status == "SUCCESSFUL", task.traceback
    return True


def run_queued_tasks(queues: str = "assists,analysis", limit: int = 1000) -> int:
    """Run the ready tasks of `queues` (tasks they queue too) until none is left; how many ran."""
    for ran in range(limit):
        if not run_next_task(queues):
            return ran
    raise AssertionError(f"more than {limit} tasks: one keeps requeueing itself")
