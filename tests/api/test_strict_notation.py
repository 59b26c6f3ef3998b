"""Codes, moves and cards are parsed strictly, as notation.md says: no surrounding spaces."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support.play import new_game, post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("code", [" YU1-C-AAAAAAB", "YU1-C-AAAAAAB ", "\tYU1-C-AAAAAAB"])
def test_a_code_with_surrounding_spaces_is_refused(alice_api: APIClient, code: str) -> None:
    answer = post(alice_api, "/api/v1/games", {"code": code})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] in ("code-prefix", "code-characters", "code-length")


def test_a_move_with_surrounding_spaces_is_refused(alice_api: APIClient) -> None:
    game = new_game(alice_api, code="YU1-C-AAAAAAB")
    move = game["legal_moves"][0]
    body = {"move": f" {move}", "version": 0}
    answer = post(alice_api, f"/api/v1/games/{game['id']}/moves", body)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid-move"
