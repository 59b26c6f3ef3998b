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

from accounts.guests import create_guest
from games.models import Game
from tests.support.play import new_game, post, token_client, winning_line
from tests.support.races import (
    end_by_time_limit,
    my_game,
    ok,
    play_direct,
    refused,
    resign,
    running_race,
)
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


@pytest.mark.django_db
def test_a_racer_gets_no_help_on_the_raced_deal_until_the_race_ends(
    alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    room = running_race(alice_api, bob_api)  # a chosen code: both racers know it
    code = winning_line()[0]
    side_game = new_game(alice_api, code=code)["id"]
    for question in ("hint", "winnability"):
        refused(post(alice_api, f"/api/v1/games/{side_game}/{question}", {}), 409, "deal-in-play")
    carol_api = token_client(carol)
    carols = new_game(carol_api, code=code)["id"]
    resign(carol_api, carols)
    refused(alice_api.get(f"/api/v1/games/{carols}/analysis"), 409, "deal-in-play")
    assert carol_api.get(f"/api/v1/games/{carols}/analysis").status_code == 200

    resign(bob_api, my_game(bob_api, room))  # resigned, but the race runs on
    bobs_side_game = new_game(bob_api, code=code)["id"]
    refused(post(bob_api, f"/api/v1/games/{bobs_side_game}/hint", {}), 409, "deal-in-play")

    end_by_time_limit(room)
    ok(alice_api.get(f"/api/v1/races/{room}"))
    assert post(alice_api, f"/api/v1/games/{side_game}/hint", {}).status_code in (200, 202)
    assert alice_api.get(f"/api/v1/games/{carols}/analysis").status_code == 200


@pytest.mark.django_db
def test_a_race_games_analysis_and_log_stay_closed_to_everybody_until_the_race_ends(
    alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    room = running_race(alice_api, bob_api)
    bobs = my_game(bob_api, room)
    play_direct(bob, bobs, winning_line()[1][:3])
    resign(bob_api, bobs)
    guest_api = token_client(create_guest())
    for client in (bob_api, alice_api, guest_api, APIClient()):
        for path in (f"/api/v1/games/{bobs}/analysis", f"/api/v1/games/{bobs}/log"):
            refused(client.get(path), 403, "race-in-progress")
    assert bob_api.get(f"/api/v1/games/{bobs}").status_code == 200  # his own board

    end_by_time_limit(room)
    ok(alice_api.get(f"/api/v1/races/{room}"))
    for client in (bob_api, guest_api):
        for path in (f"/api/v1/games/{bobs}/analysis", f"/api/v1/games/{bobs}/log"):
            assert client.get(path).status_code == 200
