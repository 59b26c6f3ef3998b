"""Migration games/0012 backfills every game's origin from the fields that told it before."""

from __future__ import annotations

import importlib
from datetime import date, timedelta

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from games.models import Game
from tests.support.play import winning_line

migration = importlib.import_module("games.migrations.0012_game_origin")


class SchemaEditor:
    """What the backfill uses of a schema editor: the connection and its quoting."""

    connection = connection

    @staticmethod
    def quote_name(name: str) -> str:
        return connection.ops.quote_name(name)


@pytest.mark.django_db
def test_old_rows_get_the_origin_their_fields_tell(alice: User) -> None:
    code, _ = winning_line()
    now = timezone.now()
    day = date(2026, 12, 1)

    def old(**fields: object) -> Game:
        return Game.objects.create(**{"owner": alice, "code": code, "state": {}, **fields})

    finished = old(status=Game.Status.WON, finished_at=now - timedelta(hours=1))
    rows = {
        "fresh": finished,
        "retry": old(assisted=True, version=3, created_at=now),
        "race": old(raced=True, race_hidden=False),
        "daily-ranked": old(daily_date=day, ranked=True, code="YU1-C-AAAAAAB"),
        "daily-practice": old(daily_date=day, code="YU1-C-AAAAAAB"),
    }
    Game.objects.update(origin="fresh")  # as the field's default left them
    migration.backfill(apps, SchemaEditor())
    for origin, game in rows.items():
        game.refresh_from_db()
        assert game.origin == origin, (origin, game)
