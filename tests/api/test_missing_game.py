"""A missing game answers one code, `game-not-found`, on reads and writes alike."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/games/999999"),
        ("get", "/api/v1/games/999999/log"),
        ("post", "/api/v1/games/999999/undo"),
        ("post", "/api/v1/games/999999/hint"),
    ],
)
def test_a_missing_game_is_game_not_found(alice_api: APIClient, method: str, path: str) -> None:
    answer = getattr(alice_api, method)(path, {"version": 0}, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "game-not-found"
