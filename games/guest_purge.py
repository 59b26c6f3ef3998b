"""Idle guests go, with their games: the purge behind `manage.py purge_guests`.

It sits in games, not accounts, because a guest's activity is its games.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games import account_closing
from games.models import Game

#: Days without a game started or moved (or a login) after which a guest is purged.
DEFAULT_IDLE_DAYS = 30


def idle_guests(days: int = DEFAULT_IDLE_DAYS) -> QuerySet[User]:
    """Guests with no sign-in, no game started and no move for `days` days."""
    cutoff = timezone.now() - timedelta(days=days)
    recent_game = Game.objects.filter(owner=OuterRef("pk")).filter(
        Q(created_at__gte=cutoff) | Q(last_move_at__gte=cutoff)
    )
    return (
        User.objects.filter(player_settings__is_guest=True, date_joined__lt=cutoff)
        .exclude(last_login__gte=cutoff)
        .exclude(Exists(recent_game))
    )


def purge(days: int = DEFAULT_IDLE_DAYS, batch: int = 500) -> int:
    """Close idle guests' accounts (`account_closing.close`: the path a player who leaves
    takes), a batch at a time; the number closed."""
    closed = 0
    while True:
        ids = list(idle_guests(days).values_list("pk", flat=True)[:batch])
        if not ids:
            return closed
        for pk in ids:
            with transaction.atomic():  # still idle now: a guest may have played since the read
                guest = idle_guests(days).select_for_update().filter(pk=pk).first()
                if guest is not None:
                    account_closing.close(guest)
                    closed += 1
