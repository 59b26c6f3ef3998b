"""Usernames become one per name: stored NFKC-normalized, unique in any letter case.

First every stored name is settled (`settle_names`):

- it is NFKC-normalized (a full-width `ｂｏｂ` is stored as `bob`);
- a registered account whose name was a guest name in disguise (a full-width `guest-`)
  gets `player-` in place of that prefix (`guest-` names are guests' alone);
- where two accounts' names are then one name in any case or width, the oldest account
  (the lowest id) keeps it and each later one becomes the name plus `-2`, `-3`, ... (the
  first that is free).

Each change is logged by the logger `accounts.migrations` (a rename at WARNING, with the
account's id, its old and new name and who kept the name; a normalization alone at INFO),
so operators can tell the players: they sign in with the new name from then on. Then the
unique index `accounts_username_folded` on `lower(username COLLATE "pg_c_utf8")` makes
the database refuse a twin for good, however a row is written (`accounts.usernames`).
Reversing drops the index; names stay as settled.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Any

from django.db import migrations

logger = logging.getLogger("accounts.migrations")

INDEX = "accounts_username_folded"
GUEST_PREFIX = "guest-"
REGISTERED_PREFIX = "player-"
MAX_LENGTH = 150


def folded(connection: Any, names: set[str]) -> dict[str, str]:
    """Each name lowered exactly as the unique index will lower it (by PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT name, lower(name COLLATE "pg_c_utf8") FROM unnest(%s::text[]) AS name',
            [sorted(names)],
        )
        return dict(cursor.fetchall())


def free_name(name: str, key: str, taken: set[str]) -> tuple[str, str]:
    """`name` plus the first suffix `-2`, `-3`, ... whose folded form nobody has.

    The case mapping is one character for one, so a cut name's key is its key cut alike.
    """
    number = 2
    while True:
        suffix = f"-{number}"
        keep = MAX_LENGTH - len(suffix)
        candidate, candidate_key = name[:keep] + suffix, key[:keep] + suffix
        if candidate_key not in taken:
            return candidate, candidate_key
        number += 1


def settle_names(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("auth", "User")
    PlayerSettings = apps.get_model("accounts", "PlayerSettings")
    connection = schema_editor.connection
    with connection.cursor() as cursor:  # no account is named or renamed meanwhile
        cursor.execute(f"LOCK TABLE {User._meta.db_table} IN SHARE ROW EXCLUSIVE MODE")
    guests = set(PlayerSettings.objects.filter(is_guest=True).values_list("user_id", flat=True))
    rows = list(User.objects.order_by("pk").values_list("pk", "username"))
    wanted: dict[int, str] = {}
    for pk, stored in rows:
        name = unicodedata.normalize("NFKC", stored)
        if pk not in guests and name.lower().startswith(GUEST_PREFIX):
            name = REGISTERED_PREFIX + name[len(GUEST_PREFIX) :]
        wanted[pk] = name[:MAX_LENGTH]
    keys = folded(connection, set(wanted.values()))
    holder: dict[str, int] = {}  # folded name -> the oldest account wanting it
    for pk, _ in rows:
        holder.setdefault(keys[wanted[pk]], pk)
    taken = set(holder)
    final: dict[int, str] = {}
    for pk, stored in rows:
        name, key = wanted[pk], keys[wanted[pk]]
        kept_by = holder[key]
        if kept_by != pk:
            name, key = free_name(name, key, taken)
            taken.add(key)
            logger.warning(
                "account %s renamed from %r to %r: account %s keeps the name %r",
                pk,
                stored,
                name,
                kept_by,
                wanted[kept_by],
            )
        elif name != unicodedata.normalize("NFKC", stored):
            logger.warning(
                "account %s renamed from %r to %r: guest- names are guests'", pk, stored, name
            )
        elif name != stored:
            logger.info("account %s: name %r stored as %r (NFKC)", pk, stored, name)
        if name != stored:
            final[pk] = name
    # Out of the way first, so no new name meets an old one on the exact unique constraint.
    for pk in final:
        User.objects.filter(pk=pk).update(username=f"\x01renaming-{pk}")
    for pk, name in final.items():
        User.objects.filter(pk=pk).update(username=name)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_traded_codes"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(settle_names, migrations.RunPython.noop),
        migrations.RunSQL(
            f'CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(username COLLATE "pg_c_utf8"))',
            f"DROP INDEX {INDEX}",
        ),
    ]
