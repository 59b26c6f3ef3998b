"""Marking an account: staff take it off every public board and rating and hide its results
from other players, and can take the mark back. Every mark and unmark is a line of the audit
log (`ModerationEntry`). A mark changes no result, statistic or rating: boards and rankings
leave marked players out when they read (games.fairness.counting, through
`marked_players`), so unmarking restores all.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Mark, ModerationEntry


def marked_players() -> QuerySet[Mark, int]:
    """The ids of the accounts marked now: games.fairness.counting leaves them off every
    public board, ranking and rating list."""
    return Mark.objects.values_list("user_id", flat=True)


def is_marked(user: AbstractBaseUser | AnonymousUser) -> bool:
    return user.is_authenticated and Mark.objects.filter(user_id=user.pk).exists()


def hidden_from(player: AbstractBaseUser, viewer: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether `viewer` is refused `player`'s public pages: a marked player's results are
    hidden from everybody but themselves."""
    return viewer.pk != player.pk and is_marked(player)


def mark(user: User, *, by: User, reason: str) -> ModerationEntry:
    """Mark `user` and log it; refused (ValidationError) if already marked."""
    with transaction.atomic():
        User.objects.select_for_update().get(pk=user.pk)  # one staff change at a time
        if Mark.objects.filter(user=user).exists():
            raise ValidationError(f"{user.get_username()} is already marked.")
        now = timezone.now()
        Mark.objects.create(user=user, marked_at=now, reason=reason)
        return _log(user, ModerationEntry.Action.MARK, by, reason, now)


def unmark(user: User, *, by: User, reason: str) -> ModerationEntry:
    """Take `user`'s mark back and log it; refused (ValidationError) if not marked."""
    with transaction.atomic():
        User.objects.select_for_update().get(pk=user.pk)
        deleted, _ = Mark.objects.filter(user=user).delete()
        if not deleted:
            raise ValidationError(f"{user.get_username()} is not marked.")
        return _log(user, ModerationEntry.Action.UNMARK, by, reason, timezone.now())


def _log(
    user: User, action: ModerationEntry.Action, by: User, reason: str, at: datetime
) -> ModerationEntry:
    return ModerationEntry.objects.create(
        user=user,
        username=user.get_username(),
        action=action,
        reason=reason,
        actor=by,
        actor_name=by.get_username(),
        at=at,
    )
