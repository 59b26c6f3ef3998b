"""Usernames: one name, one player, however the name is typed.

A name is stored NFKC-normalized (a full-width letter is its ASCII self, a ligature its
letters, a circled digit the digit), keeping its case for display; names that differ
only in case are one name.
The database enforces that for every way a row is written (registration, a guest's
upgrade, the admin, `manage.py`): a unique index on the name lowered under PostgreSQL's
builtin `pg_c_utf8` collation (Unicode's case mapping, the same on every server and
immune to operating-system locale changes; migration accounts/0006). Every lookup by
name (`matching`) uses that same expression, so it finds what the index guards.

A NEW name (registration, a guest's upgrade) must also be plain: ASCII letters, digits, `_`
and `-`, 2 to 20 characters (`check_new`), so no look-alike of a name (a sharp s, a dotless
i, a Cyrillic a) makes a second player. Names from before that rule stay valid.

The reserved guest prefix is checked on the normalized, lowered name, so no spelling of
`guest-` gets through.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Collate, Lower
from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import Expression, QuerySet

#: Generated guest names start with this; registration and upgrades refuse it.
GUEST_PREFIX = "guest-"
#: A deleted account that others' race results still name is renamed under this prefix.
DELETED_PREFIX = "deleted-"
#: PostgreSQL 17's builtin collation: Unicode simple case mapping, immutable.
COLLATION = "pg_c_utf8"
#: The unique index on the folded name (migration accounts/0006), and Django's own on the name.
FOLDED_INDEX = "accounts_username_folded"
UNIQUE_CONSTRAINTS = frozenset({FOLDED_INDEX, "auth_user_username_key"})
#: What a new name may be: its letters look like nobody else's.
NEW_NAME = re.compile(r"[A-Za-z0-9_-]{2,20}")


class UsernameTaken(ServiceError):
    """Another player has this name, in this or another case or width."""

    code = "username-taken"
    status = 409
    message = _(
        "This username is taken: names that differ only in letter case or character width "
        "are one name."
    )

    def __init__(self, username: str) -> None:
        super().__init__(str(self.message))
        self.username = username

    def details(self) -> dict[str, object]:
        # Also where a sign-up form shows its field errors (as for a 400 invalid-request),
        # in the answer's language.
        return {"fields": {"username": [str(self.message)]}}


class UsernameNotAllowed(ServiceError):
    """A new name outside the plain alphabet, or too short or long."""

    code = "username-not-allowed"
    status = 400
    message = _("A new username is 2 to 20 characters: ASCII letters (a-z, A-Z), digits, _ and -.")

    def details(self) -> dict[str, object]:
        return {"fields": {"username": [str(self.message)]}}


def check_new(typed: str) -> str:
    """The stored form of a new name, or `UsernameNotAllowed`."""
    name = normalize(typed)
    if not NEW_NAME.fullmatch(name):
        raise UsernameNotAllowed(str(UsernameNotAllowed.message))
    return name


def normalize(name: str) -> str:
    """The stored form of a typed name: NFKC (Django's `normalize_username` does the same)."""
    return unicodedata.normalize("NFKC", name)


def reserved_prefix(name: str) -> str | None:
    """The reserved prefix (guests', deleted accounts') the name starts with, in whatever
    case or width, or None."""
    folded = normalize(name).lower()
    return next((p for p in (GUEST_PREFIX, DELETED_PREFIX) if folded.startswith(p)), None)


def same(one: str, other: str) -> bool:
    """Whether two typed names are one name (for comparisons outside the database)."""
    return normalize(one).lower() == normalize(other).lower()


def folded(expression: Expression | F | Value) -> Lower:
    """The name as the unique index keys it: lowered under the builtin collation."""
    return Lower(Collate(expression, COLLATION))


def matching(name: str, players: QuerySet[User] | None = None) -> QuerySet[User]:
    """The players (at most one) whose name is `name` in any case or width."""
    users = players if players is not None else get_user_model().objects.all()
    return users.alias(folded_name=folded(F("username"))).filter(
        folded_name=folded(Value(normalize(name)))
    )


def stored_name(name: str) -> str | None:
    """The stored spelling of the player's name typed as `name`, or None for nobody."""
    found: str | None = matching(name).values_list("username", flat=True).first()
    return found


def is_clash(error: IntegrityError) -> bool:
    """Whether the write failed on a username's uniqueness (not on something else)."""
    diag: Any = getattr(error.__cause__, "diag", None)
    return getattr(diag, "constraint_name", None) in UNIQUE_CONSTRAINTS


@contextmanager
def claiming(name: str) -> Iterator[None]:
    """Around the write that gives a player the (normalized) `name`: a name taken before is
    refused at once, one taken by a concurrent write when the unique index stops this one.
    Either way: `UsernameTaken`, and nothing written."""
    if matching(name).exists():
        raise UsernameTaken(name)
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        if not is_clash(error):
            raise
        raise UsernameTaken(name) from None
