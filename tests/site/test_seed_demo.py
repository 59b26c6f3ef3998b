"""`manage.py seed_demo` fills a fresh database with demo players, their finished games and
statistics, every game replaying to its stored state."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game, PlayerStats, Result


@pytest.mark.django_db
def test_seed_demo_fills_a_fresh_database() -> None:
    out = StringIO()
    call_command("seed_demo", "--players", "6", "--games", "60", "--days", "2", stdout=out)
    assert "seeded 6 players" in out.getvalue()
    games = Game.objects.all()
    assert games.count() >= 60 and not games.filter(status=Game.Status.ACTIVE).exists()
    assert Result.objects.count() == games.count()
    assert sum(PlayerStats.objects.values_list("games", flat=True)) == games.count()
    assert not games.filter(raced=True).exists() and not games.filter(race_hidden=True).exists()
    call_command("verify_games", stdout=StringIO())  # exits 1 on any difference
