"""Quick match: a queue per rule that seats waiting players in a race of 2 to 4.

Two waiting players are matched once the second has waited `GATHER_SECONDS` (so a
third and fourth arriving meanwhile race too); four are matched at once. Matching
runs on every queue read and write under a per-rule advisory lock, from the stored
join times, so any process may do it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TypedDict

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.engine import RULES
from games.races import lifecycle, rooms
from games.races.errors import AlreadyRacing
from games.races.models import QueueEntry, Race, Racer

GATHER_SECONDS = 5
QUICK_RACE_SIZE = 4


class QueueStatus(TypedDict):
    waiting: bool
    rule: str | None
    joined_at: str | None
    waited_seconds: float
    players_waiting: int
    race: str | None


def _lock_rule(rule: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x524143, ord(rule)])


def _match(rule: str) -> None:
    """Seat the longest-waiting players of `rule` in a race when enough have gathered."""
    now = timezone.now()
    with transaction.atomic():
        _lock_rule(rule)
        # An entry whose player sits in a race cannot be seated: it leaves the queue rather
        # than hold up everyone behind it.
        QueueEntry.objects.filter(rule=rule, player__racers__active=True).delete()
        waiting = list(
            QueueEntry.objects.filter(rule=rule).select_related("player")[:QUICK_RACE_SIZE]
        )
        if len(waiting) < 2:
            return
        if len(waiting) < QUICK_RACE_SIZE and now - waiting[1].joined_at < timedelta(
            seconds=GATHER_SECONDS
        ):
            return
        QueueEntry.objects.filter(pk__in=[entry.pk for entry in waiting]).delete()
        race = rooms.new_race(waiting[0].player, rule=rule, private=True, quick=True)
        for entry in waiting:
            rooms.seat(race, entry.player, ready=True)
        racers = lifecycle.racers_of(race)
        lifecycle.start_countdown(race, racers, now, settings.RACE_COUNTDOWN_SECONDS)


def status(player: User) -> QueueStatus:
    entry = QueueEntry.objects.filter(player=player).first()
    if entry is not None:
        _match(entry.rule)
        entry = QueueEntry.objects.filter(player=player).first()
    active = (
        Racer.objects.filter(player=player, active=True)
        .exclude(race__status=Race.Status.FINISHED)
        .values_list("race__room", flat=True)
        .first()
    )
    now = timezone.now()
    return {
        "waiting": entry is not None,
        "rule": entry.rule if entry is not None else None,
        "joined_at": entry.joined_at.isoformat() if entry is not None else None,
        "waited_seconds": round((now - entry.joined_at).total_seconds(), 1) if entry else 0.0,
        "players_waiting": QueueEntry.objects.filter(rule=entry.rule).count() if entry else 0,
        "race": active,
    }


def enter(player: User, rule: str) -> QueueStatus:
    letter = RULES[rule.upper()].letter
    with transaction.atomic():
        rooms.hold(player)  # the same lock as taking a seat: one of the two wins
        if Racer.objects.filter(player=player, active=True).exists():
            raise AlreadyRacing("You are already in a race: finish or leave it first.")
        try:
            with transaction.atomic():
                QueueEntry.objects.create(player=player, rule=letter)
        except IntegrityError:
            raise AlreadyRacing("You are waiting for a quick match already.") from None
    return status(player)


def cancel(player: User) -> None:
    QueueEntry.objects.filter(player=player).delete()
