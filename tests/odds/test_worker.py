"""`manage.py winnability` through a real `manage.py worker --queue-name odds` process."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.engine import RUSSIAN
from games.odds.models import DealResult
from games.odds.summary import rule_odds
from tests.support.servers import task_worker
from tests.support.waiting import wait_until

COMMAND = ("winnability", "--rule", "U", "--deals", "6", "--nodes", "2000", "--chunk", "2")


@pytest.mark.django_db(transaction=True)
def test_a_worker_measures_the_queued_sample_and_a_rerun_queues_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command(*COMMAND)
    assert "6 queued now in 3 chunks" in capsys.readouterr().out

    with task_worker("odds-worker", queues="odds"):
        wait_until(lambda: DealResult.objects.exclude(verdict="").count() == 6, "6 deals measured")

    call_command(*COMMAND)
    assert "U: 6 deals, 6 measured, 0 waiting, 0 queued now in 0 chunks" in capsys.readouterr().out
    assert rule_odds(RUSSIAN, node_budget=2000).deals == 6
