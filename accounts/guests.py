"""Guest players: real accounts made in one click, upgraded in place when they sign up.

A guest is an ordinary ``User`` row with an unusable password, no e-mail and a
generated name under a prefix that registration refuses, flagged by
``PlayerSettings.is_guest``. Because signing up upgrades the same row (name,
password, flag), every game, result, statistic and setting stays with the player
without copying anything. Guests never appear on a leaderboard, a daily ranking or
a public profile; idle guests are purged with their games (``games.guest_purge``).
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts import usernames
from accounts.models import PlayerSettings
from accounts.usernames import GUEST_PREFIX as GUEST_PREFIX  # where guests' names are told
from ops.errors import ServiceError

#: A guest's session outlives Django's two-week default: it is the only way back to the account.
SESSION_SECONDS = 365 * 24 * 3600
_NAME_ATTEMPTS = 5


class NotAGuest(ServiceError):
    """Only a guest account can be upgraded (a registered one already has a name)."""

    code = "not-a-guest"
    status = 409
    message = _("Only a guest can be upgraded; this account is registered.")

    def __init__(self) -> None:
        super().__init__("Only a guest can be upgraded; this account is registered.")


def is_guest(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not user.is_authenticated:
        return False
    return PlayerSettings.objects.filter(user_id=user.pk, is_guest=True).exists()


def ensure_guest(user: AbstractBaseUser | AnonymousUser) -> None:
    if not is_guest(user):
        raise NotAGuest()


def create_guest() -> User:
    """A new guest with a random name (retried on the unlikely collision)."""
    for _attempt in range(_NAME_ATTEMPTS):
        name = GUEST_PREFIX + secrets.token_hex(5)
        try:
            with transaction.atomic():
                user = User(username=name)
                user.set_unusable_password()
                user.save()
                PlayerSettings.objects.create(user=user, is_guest=True)
                return user
        except IntegrityError:
            continue
    raise RuntimeError(f"no free guest name after {_NAME_ATTEMPTS} attempts")


def upgrade(user: User, *, username: str, password: str, email: str = "") -> User:
    """Turn a guest into a registered player, keeping the row (and so every game and stat).

    `username` is stored NFKC-normalized; a name another player has, in any case or
    width, is refused (`usernames.UsernameTaken`) and the guest stays as it was.
    """
    name = usernames.normalize(username)
    with usernames.claiming(name):
        # Locked and checked again here: of two upgrades at once, the second one waits
        # and finds a registered player, instead of overwriting the first one's name.
        if not PlayerSettings.objects.select_for_update().filter(user=user, is_guest=True):
            raise NotAGuest()
        user.username = name
        user.email = email
        user.set_password(password)
        user.save(update_fields=["username", "email", "password"])
        PlayerSettings.objects.filter(user=user).update(is_guest=False)
    return user
