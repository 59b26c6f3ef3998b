"""Keeping the public puzzles stocked, so a fresh site has them on day one and the daily
puzzle never runs out (docs/puzzles.md, "Keeping the pool stocked").

Public puzzles come only from the server's self-play (games.puzzles.mining). A fresh site
mines its first ones as it starts (`manage.py stock_puzzles`, bounded in time, run by
`make run` and by docker-compose's one-shot `migrate` job); then the workers' janitor queues
one self-play deal at a time (`restock`) while fewer than `settings.PUZZLE_STOCK` of them
wait unused. The answers are mined on the site, under its own key: none is ever in git.
"""

from __future__ import annotations

import random
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import events
from games.engine import ALASKA, CLASSIC, DEAL_COUNT, GameCode
from games.puzzles import daily, mining
from games.puzzles.models import Puzzle

#: The rules self-play deals: Classic, and Alaska, whose deals give puzzles about ten times
#: as often (docs/puzzles.md, "Where puzzles come from").
SELF_PLAY_RULES = (CLASSIC, ALASKA)
#: The task `restock` queues (games.analysis.tasks), and how long one may run before a
#: janitor takes it for lost with a killed worker and queues another.
MINE_TASK = "games.analysis.tasks.mine_self_play_deal"
LOST_AFTER = timedelta(minutes=10)
#: No candidate of a deal is started after this long: a worker's mining gives way to a
#: waiting hint within about this long plus one candidate's proof.
DEAL_SECONDS = 10.0


def unused() -> int:
    """Puzzles that may be a day's puzzle and never were one."""
    return daily.daily_pool().filter(days__isnull=True).count()


def chooser() -> random.Random:
    """What draws the workers' self-play deals: unpredictable (the cards would stay secret
    anyway, being dealt under the self-play key)."""
    return random.SystemRandom()


def mine_one(chooser: random.Random) -> list[Puzzle]:
    """Mine one self-play deal, its rule and number drawn by `chooser`."""
    rule = chooser.choice(SELF_PLAY_RULES)
    return mining.mine_deal(GameCode(rule, chooser.randrange(DEAL_COUNT)), DEAL_SECONDS)


def restock() -> bool:
    """Queue one self-play deal's mining while the stock is below `settings.PUZZLE_STOCK` and
    none is queued or running already; whether one was queued."""
    if unused() >= settings.PUZZLE_STOCK:
        return False
    waiting = DBTaskResult.objects.filter(
        task_path=MINE_TASK, status__in=["READY", "RUNNING"]
    ).exclude(status="RUNNING", started_at__lt=timezone.now() - LOST_AFTER)
    if waiting.exists():
        return False
    with transaction.atomic():
        events.happened(events.PuzzleStockWanted())
    return True


def stock_up(count: int, seconds: float, chooser: random.Random) -> tuple[int, int]:
    """Mine self-play deals until `count` puzzles wait unused, or `seconds` have passed (a
    deal is not cut short): the puzzles unused then, and the deals mined."""
    deadline = time.monotonic() + seconds
    mined = 0
    while unused() < count and time.monotonic() < deadline:
        mine_one(chooser)
        mined += 1
    return unused(), mined
