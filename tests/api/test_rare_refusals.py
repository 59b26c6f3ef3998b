"""Refusals that no other API test provokes, each through the API (the engine found the spots)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.play import new_game, post, token_client, winning_line
from tests.support.races import open_room, refused

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("played", "move", "code"),
    [
        (0, "6S>1", "same-column"),
        (4, "AS>F", "card-not-in-play"),
        (15, "6S>4", "empty-column-needs-king"),
    ],
)
def test_rule_refusals_along_the_winning_line(
    alice_api: APIClient, played: int, move: str, code: str
) -> None:
    deal, line = winning_line()
    game = new_game(alice_api, code=deal)
    for version, step in enumerate(line[:played]):
        assert (
            post(
                alice_api, f"/api/v1/games/{game['id']}/moves", {"move": step, "version": version}
            ).status_code
            == 200
        )
    refused = post(
        alice_api, f"/api/v1/games/{game['id']}/moves", {"move": move, "version": played}
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == code


def test_a_short_code_is_code_length(alice_api: APIClient) -> None:
    refused = post(alice_api, "/api/v1/games", {"code": "YU1-C-AAAAAA"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "code-length")


def test_an_accept_header_without_json_is_406(alice_api: APIClient) -> None:
    refused = alice_api.get("/api/v1/games", HTTP_ACCEPT="application/xml")
    assert refused.status_code == 406
    assert refused.json()["error"]["code"] == "not-acceptable"


def test_a_full_room_is_race_full_and_starting_alone_is_too_few_racers(
    alice_api: APIClient, bob_api: APIClient
) -> None:
    alone = open_room(alice_api)
    refused(post(alice_api, f"/api/v1/races/{alone}/start", {}), 409, "too-few-racers")
    pair = open_room(bob_api, max_players=2)
    carol, dave = (
        token_client(User.objects.create_user(name, password=f"pw-{name}-long-1"))
        for name in ("carol", "dave")
    )
    assert post(carol, f"/api/v1/races/{pair}/join", {}).status_code == 200
    refused(post(dave, f"/api/v1/races/{pair}/join", {}), 409, "race-full")


def test_a_chosen_code_for_a_public_room_is_code_needs_private_room(alice_api: APIClient) -> None:
    """A public room deals a random deal: a chosen code would let its creator know the cards."""
    body = {"code": winning_line()[0], "private": False}
    refused(post(alice_api, "/api/v1/races", body), 400, "code-needs-private-room")
