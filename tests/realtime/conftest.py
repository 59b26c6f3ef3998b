"""The owner and the game most websocket tests play on."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.realtime.wire import CODE
from tests.support.play import new_game, token_client


@pytest.fixture
def owner(alice: User) -> APIClient:
    return token_client(alice)


@pytest.fixture
def game(owner: APIClient) -> dict[str, Any]:
    return new_game(owner, code=CODE)
