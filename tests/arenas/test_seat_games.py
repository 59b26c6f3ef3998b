"""The arena's state names the viewer's own games (the arena page's board, its "without
undo" badge, and each deal's replay after the end), and nobody else's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.arenas import Clock, arena_on_known_deals, win_current
from tests.support.play import post
from tests.support.races import ok

pytestmark = pytest.mark.django_db


def test_the_seat_lists_your_games_in_order_with_without_undo(
    clock: Clock, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    clock.move(minutes=1)
    first = ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 201)["game"]["id"]
    win_current(alice, arena)
    second = ok(alice_api.get(f"/api/v1/arenas/{arena.pk}/game"))["id"]
    ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/without-undo", {}))

    seat = ok(alice_api.get(f"/api/v1/arenas/{arena.pk}"))["seat"]

    assert seat["games"] == [
        {"index": 0, "game": first, "status": "won", "without_undo": False},
        {"index": 1, "game": second, "status": "active", "without_undo": True},
    ]
    assert ok(bob_api.get(f"/api/v1/arenas/{arena.pk}"))["seat"] is None
