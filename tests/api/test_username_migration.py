"""Migration accounts/0006 settles the names stored before the rule: NFKC-normalized, the oldest
account keeps a name that has twins, later ones are renamed with a suffix (and logged), a guest
name in disguise loses its prefix; then the unique index can be built."""

from __future__ import annotations

import importlib
import logging
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction

from accounts.models import PlayerSettings

migration = importlib.import_module("accounts.migrations.0006_usernames_one_per_name")


def wide(text: str) -> str:
    """`text` in full-width forms, as a client could have sent it before the rule."""
    return "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in text)


def run_the_migration() -> None:
    migration.settle_names(apps, SimpleNamespace(connection=connection))
    with connection.cursor() as cursor:
        cursor.execute(migration.Migration.operations[1].sql)


@pytest.mark.django_db
def test_names_stored_before_the_rule_are_settled_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with connection.cursor() as cursor:  # as before the migration (rolled back with the test)
        cursor.execute(f"DROP INDEX {migration.INDEX}")
    names = [
        "Bob",
        wide("bob"),
        "BOB",
        "Bob-2",
        wide("guest") + "-abc",
        "guest-0123456789",
        wide("carol"),
        "\N{LATIN CAPITAL LETTER O WITH DIAERESIS}lfa",
        "\N{LATIN SMALL LETTER O WITH DIAERESIS}LFA",
        "dave",
    ]
    ids = [User.objects.create(username=name).pk for name in names]
    PlayerSettings.objects.create(user_id=ids[5], is_guest=True)
    with caplog.at_level(logging.INFO, logger="accounts.migrations"):
        run_the_migration()
    settled = dict(User.objects.values_list("pk", "username"))
    assert [settled[pk] for pk in ids] == [
        "Bob",  # the oldest keeps the name
        "bob-3",  # bob-2 is another account's name, in another case
        "BOB-4",
        "Bob-2",
        "player-abc",  # a registered account is no guest
        "guest-0123456789",
        "carol",
        "\N{LATIN CAPITAL LETTER O WITH DIAERESIS}lfa",
        "\N{LATIN SMALL LETTER O WITH DIAERESIS}LFA-2",
        "dave",
    ]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 4
    assert f"account {ids[1]} renamed from {wide('bob')!r} to 'bob-3'" in warned[0]
    assert f"account {ids[0]} keeps the name 'Bob'" in warned[0]
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="DAVE")


@pytest.mark.django_db
def test_a_long_name_keeps_its_suffix_within_the_limit() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX {migration.INDEX}")
    long = "x" * 150
    first, second = (User.objects.create(username=name) for name in (long, long.upper()))
    run_the_migration()
    second.refresh_from_db()
    first.refresh_from_db()
    assert first.username == long
    assert second.username == "X" * 148 + "-2"
