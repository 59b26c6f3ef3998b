"""Migration games/0004 turns stored v1 snapshots into v2 ones that replay identically."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from games.engine import DEV_DEAL_KEY, GameCode, Move, private_form, read_private
from games.engine import Game as EngineGame
from games.models import Game
from tests.support.play import winning_line

migration = importlib.import_module("games.migrations.0004_private_state_v2")


def as_v1(private: dict[str, Any]) -> dict[str, Any]:
    """The same state in the first private format (undo records as objects)."""
    records = [
        {"move": move, "from": source, "cards": cards, "turned_up": bool(turned)}
        for move, source, cards, turned in private["undo"]
    ]
    return {**private, "format": "yukon-private-v1", "undo": records}


@pytest.mark.django_db
def test_v1_snapshots_become_v2_and_load_unchanged(alice: User) -> None:
    code, line = winning_line()
    engine = EngineGame.new(GameCode.parse(code), DEV_DEAL_KEY)
    for move in line[:30]:
        engine.play(Move.parse(move))
    row = Game.objects.create(owner=alice, code=code, state=as_v1(private_form(engine)))
    migration.to_v2(apps, None)
    row.refresh_from_db()
    assert row.state == private_form(engine)
    assert read_private(row.state) == engine
