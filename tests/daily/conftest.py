"""Daily-deal fixtures: a frozen UTC clock, API clients and a lobby listener."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User

from tests.daily.helpers import DAY, Lobby, at


@pytest.fixture(autouse=True)
def small_solver_budget(settings: Any) -> None:
    """Keep an unproven candidate cheap (the chosen deal is still proven winnable)."""
    settings.DAILY_SOLVER_NODES = 20_000


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    """Noon UTC on DAY, standing still until a test moves it."""
    with time_machine.travel(at(DAY), tick=False) as traveller:
        yield traveller


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password="horse staple correct")


@pytest.fixture
def lobby(db: None) -> Lobby:
    return Lobby()
