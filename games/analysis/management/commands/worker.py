"""`manage.py worker`: django-tasks-db's `db_worker`, niced, with a janitor thread beside it.

The library runs the tasks (one at a time per process, highest priority first: hints
before analysis). What it does not do is notice a worker that was killed mid-task; the
janitor does, every few seconds, by requeueing analysis jobs whose heartbeat went
quiet, and it queues the analysis of daily games their closed day left unfinished and of
the games of ended arenas (held back while they ran), the mining of a self-play deal while
the public puzzles run low (games.puzzles.stock), makes the arena schedule's next arenas
(games.arenas.schedule) and settles the arenas past their end that nobody touched.

By default it serves the queues a player waits on (assists, analysis). The published odds'
chunks (`manage.py winnability`) wait on their own queue, served by workers started for it
(`--queue-name odds`), so a long chunk never holds a hint back.

The library's loop ends the process when recording a task's result fails, which it does
when the task's row was deleted while the task ran (results pruned, a test's flush):
`SteadyWorker` drops that result and serves on.
"""

from __future__ import annotations

import logging
import os
import threading
from argparse import ArgumentParser
from typing import Any

from django.db import DatabaseError, close_old_connections
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from games.analysis import jobs
from games.arenas import clock, schedule
from games.arenas import play as arenas
from games.puzzles import stock

logger = logging.getLogger(__name__)

#: Seconds between two janitor rounds.
JANITOR_EVERY_SECONDS = 5.0


def _janitor(stop: threading.Event) -> None:
    while True:
        try:
            requeued = jobs.recover()
            closed = jobs.enqueue_closed_dailies() + jobs.enqueue_ended_arenas()
            stock.restock()
            schedule.ensure_ahead(clock.now())
            arenas.settle_ended(clock.now())
            if requeued or closed:
                logger.info(
                    "janitor: %s job(s) requeued, %s daily or arena game(s) queued",
                    requeued,
                    closed,
                )
        except Exception:  # the database may be briefly away: try again next round
            logger.warning("janitor round failed", exc_info=True)
        finally:
            close_old_connections()
        if stop.wait(JANITOR_EVERY_SECONDS):
            return


class SteadyWorker(db_worker.Worker):
    """django-tasks-db's worker, alive after a task whose row went away while it ran."""

    def run_task(self, db_task_result: DBTaskResult[..., object]) -> None:
        try:
            super().run_task(db_task_result)
        except DatabaseError:
            if DBTaskResult.objects.filter(pk=db_task_result.pk).exists():
                raise
            logger.warning(
                "task %s was deleted while it ran: its result is dropped", db_task_result.pk
            )


class Command(db_worker.Command):
    help = "Run a task worker (analysis, queued hints) at a lower CPU priority than the web."

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.set_defaults(queue_name="assists,analysis", reload=False)
        parser.add_argument(
            "--nice",
            type=int,
            default=10,
            help="Niceness added to this process, so play is served first (default: 10).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        os.nice(options.pop("nice"))
        stop = threading.Event()
        janitor = threading.Thread(target=_janitor, args=(stop,), name="janitor", daemon=True)
        janitor.start()
        # The library builds its Worker inside handle(), by this module-level name.
        db_worker.Worker = SteadyWorker  # type: ignore[misc]
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
