"""The move throttle: a per-player counter per fixed window, answered 429 with Retry-After."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from api.throttles import MoveThrottle
from tests.support.play import post


@pytest.mark.django_db
def test_moves_over_the_rate_are_refused_per_player(
    alice_api: APIClient, bob_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setattr(MoveThrottle, "THROTTLE_RATES", {"moves": "2/min"})
    game = post(alice_api, "/api/v1/games", {}).json()
    path = f"/api/v1/games/{game['id']}/undo"
    # Undo on a fresh game is refused by the rules (422) but still counts as a write.
    assert [post(alice_api, path, {"version": 0}).status_code for _ in range(2)] == [422, 422]
    throttled = post(alice_api, path, {"version": 0})
    assert throttled.status_code == 429
    assert throttled.json()["error"]["code"] == "throttled"
    assert 0 < int(throttled["Retry-After"]) <= 60
    other = post(bob_api, "/api/v1/games", {}).json()
    assert post(bob_api, f"/api/v1/games/{other['id']}/undo", {"version": 0}).status_code == 422
