"""While a race runs no endpoint, push or log tells one racer another's cards or the code.

The racers share a deal: every card Alice turns up is still face down on Bob's board, so
each answer Bob (or anyone) can get is searched for those cards and for the code.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from tests.support.play import winning_line
from tests.support.races import my_game, play_direct, running_race
from tests.support.secrecy import face_down_cards, strings


@pytest.mark.django_db
def test_a_running_race_tells_nobody_another_racers_cards_or_the_code(
    alice: User, bob: User, alice_api: APIClient, bob_api: APIClient, caplog: Any
) -> None:
    caplog.set_level(logging.DEBUG)
    code, line = winning_line()
    room = running_race(alice_api, bob_api)
    alices, bobs = my_game(alice_api, room), my_game(bob_api, room)
    play_direct(alice, alices, line[:30])
    turned_up_by_alice = face_down_cards(bobs) - face_down_cards(alices)
    assert len(turned_up_by_alice) >= 5
    anonymous = APIClient()
    bodies: list[Any] = []
    for client in (bob_api, anonymous):
        for path in (
            f"/api/v1/races/{room}",
            "/api/v1/races",
            f"/api/v1/games/{alices}",
            f"/api/v1/games/{alices}/log",
            "/api/v1/players/alice/races",
            "/api/v1/players/alice/history",
            "/api/v1/races/leaderboard",
        ):
            response = client.get(path)
            assert response.status_code in (200, 403), (path, response.content)
            bodies.append(response.json())
    bodies.append(bob_api.get("/api/v1/games").json())
    bodies.append(bob_api.get(f"/api/v1/games/{bobs}").json())
    bodies.append(alice_api.get(f"/api/v1/games/{alices}").json())  # her own: no code either
    page = bob_api.get(f"/races/{room}").content.decode()
    for body in bodies:
        text = json.dumps(body)
        assert code not in text, text[:300]
        leaked = turned_up_by_alice.intersection(strings(body))
        assert not leaked or body == bodies[-1], (leaked, text[:300])
    assert code not in page
    assert code not in caplog.text
    assert Game.objects.filter(pk__in=[alices, bobs], race_hidden=True).count() == 2
