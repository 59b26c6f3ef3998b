"""A real worker process killed (SIGKILL) in the middle of an analysis: another one finishes it,
and every version's verdict is stored exactly once."""

from __future__ import annotations

import os
import signal

import pytest
from django.contrib.auth.models import User
from django_tasks_db.models import DBTaskResult

from games.analysis.models import GameAnalysis, PositionVerdict
from tests.support.analysis import abandoned, random_play
from tests.support.servers import task_worker
from tests.support.waiting import wait_until

#: A budget that keeps each position busy long enough to be caught mid-job even by the
#: compiled solver on a quiet machine (3,000 positions finished the whole job within the
#: first second there, before the test could freeze it), in chunks of two positions.
WORKER_ENV = {
    "ANALYSIS_POSITION_NODES": "40000",
    "ANALYSIS_CHUNK_POSITIONS": "2",
    "ANALYSIS_STALE_SECONDS": "2",
}


@pytest.mark.django_db(transaction=True)
def test_a_job_survives_its_worker_killed_mid_job(alice: User) -> None:
    game = abandoned(alice, random_play(alice, seed=7)[0])
    last_version = game.log.count()
    job = GameAnalysis.objects.filter(pk=game.pk)

    with task_worker("doomed", WORKER_ENV) as doomed:
        pid = doomed.process.pid

        def frozen_mid_job() -> bool:
            """Freeze the worker (SIGSTOP); keep it frozen if it holds the job, in the middle
            of a step, else let it run on (SIGCONT)."""
            os.kill(pid, signal.SIGSTOP)
            held = job.get()
            if held.status == GameAnalysis.Status.RUNNING and held.worker == "doomed":
                return True
            os.kill(pid, signal.SIGCONT)
            return False

        wait_until(frozen_mid_job, "the first worker frozen holding the job")
        doomed.kill()
    assert job.get().worker == "doomed" and job.get().status == GameAnalysis.Status.RUNNING

    with task_worker("rescuer", WORKER_ENV):
        wait_until(lambda: job.get().status == GameAnalysis.Status.DONE, "the rescue")

    versions = list(PositionVerdict.objects.filter(game=game).values_list("version", flat=True))
    assert sorted(versions) == list(range(last_version + 1))  # each once, none missing
    left = DBTaskResult.objects.filter(status="RUNNING", worker_ids=["doomed"])
    assert left.count() == 1  # the killed run, never finished; its work was redone elsewhere
    rescued = DBTaskResult.objects.filter(status="SUCCESSFUL", worker_ids__contains=["rescuer"])
    assert rescued.exists()
