"""Race fixtures: a third player, no countdown (the countdown's end is tested by moving it)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User


@pytest.fixture(autouse=True)
def no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", password="battery horse staple")
