"""Arena fixtures: the arenas' clock set by the test, a third player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.arenas import clock as arena_clock
from tests.support.arenas import Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fixed = Clock()
    monkeypatch.setattr(arena_clock, "now", fixed.now)
    return fixed


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password="battery horse staple")
