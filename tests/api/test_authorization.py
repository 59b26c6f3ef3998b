"""Who may do what: anonymous, another player, and the owner on every game endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.play import new_game, token_client

CODE = "YU1-C-AAAAAAB"

READS = ["", "/log"]
WRITES: list[tuple[str, dict[str, Any]]] = [
    ("/moves", {"move": "6S>1", "version": 0}),
    ("/tap", {"card": "9S", "version": 0}),
    ("/double-click", {"card": "6S", "version": 0}),
    ("/undo", {"version": 0}),
    ("/abandon", {"version": 0}),
]


@pytest.fixture
def game_id(alice: User) -> int:
    return int(new_game(token_client(alice), code=CODE)["id"])


def clients(alice: User, bob: User) -> dict[str, APIClient]:
    return {"anonymous": APIClient(), "other": token_client(bob), "owner": token_client(alice)}


@pytest.mark.django_db
@pytest.mark.parametrize("suffix", READS)
@pytest.mark.parametrize("who", ["anonymous", "other", "owner"])
def test_anyone_may_watch_a_game(
    alice: User, bob: User, game_id: int, suffix: str, who: str
) -> None:
    response = clients(alice, bob)[who].get(f"/api/v1/games/{game_id}{suffix}")
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(("suffix", "body"), WRITES)
@pytest.mark.parametrize(
    ("who", "status", "code"),
    [("anonymous", 401, "not-authenticated"), ("other", 403, "not-your-game")],
)
def test_only_the_owner_may_write(
    alice: User,
    bob: User,
    game_id: int,
    suffix: str,
    body: dict[str, Any],
    who: str,
    status: int,
    code: str,
) -> None:
    response = clients(alice, bob)[who].post(
        f"/api/v1/games/{game_id}{suffix}", body, format="json"
    )
    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    owner_view = token_client(alice).get(f"/api/v1/games/{game_id}").json()
    assert (owner_view["version"], owner_view["status"]) == (0, "active")


@pytest.mark.django_db
@pytest.mark.parametrize(("suffix", "body"), WRITES)
def test_the_owner_writes_are_judged_by_the_rules(
    alice: User, game_id: int, suffix: str, body: dict[str, Any]
) -> None:
    response = token_client(alice).post(f"/api/v1/games/{game_id}{suffix}", body, format="json")
    assert response.status_code in {200, 422}


@pytest.mark.django_db
@pytest.mark.parametrize(("suffix", "body"), WRITES)
def test_writes_to_an_unknown_game_are_404(alice: User, suffix: str, body: dict[str, Any]) -> None:
    response = token_client(alice).post(f"/api/v1/games/987654{suffix}", body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "game-not-found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/games"),
        ("post", "/api/v1/games"),
        ("get", "/api/v1/auth/me"),
        ("get", "/api/v1/me/settings"),
        ("get", "/api/v1/tokens"),
        ("post", "/api/v1/tokens"),
        ("delete", "/api/v1/tokens/1"),
        ("post", "/api/v1/auth/logout"),
    ],
)
def test_anonymous_is_401_on_private_endpoints(method: str, path: str) -> None:
    response = getattr(APIClient(), method)(path, {}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not-authenticated"
