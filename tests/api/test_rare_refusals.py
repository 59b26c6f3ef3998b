"""Refusals that no other API test provokes, each through the API (the engine found the spots)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support.play import new_game, post, winning_line

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
