"""A new deal replaces an untouched game: no 0-move game left behind in My games or the lobby;
a game with a move, a daily attempt and a race game are never silently deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import days
from games.models import Game
from tests.support.play import new_game, post, winning_line
from tests.support.races import my_game, running_race

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db


def my_games(client: APIClient) -> list[int]:
    return [game["id"] for game in client.get("/api/v1/games").json()["results"]]


def test_a_new_deal_replaces_an_untouched_game(alice_api: APIClient) -> None:
    untouched = new_game(alice_api, code=CODE)
    fresh = new_game(alice_api, rule="C", replaces=untouched["id"])
    assert my_games(alice_api) == [fresh["id"]]
    assert alice_api.get(f"/api/v1/games/{untouched['id']}").status_code == 404


def test_a_game_with_a_move_is_kept(alice_api: APIClient) -> None:
    played = new_game(alice_api, code=CODE)
    post(alice_api, f"/api/v1/games/{played['id']}/moves", {"move": LINE[0], "version": 0})
    fresh = new_game(alice_api, rule="C", replaces=played["id"])
    assert my_games(alice_api) == [fresh["id"], played["id"]]


def test_a_game_taken_back_to_its_deal_is_touched(alice_api: APIClient) -> None:
    """Untouched means no log entry: a move and its undo are two."""
    game = new_game(alice_api, code=CODE)
    post(alice_api, f"/api/v1/games/{game['id']}/moves", {"move": LINE[0], "version": 0})
    undone = post(alice_api, f"/api/v1/games/{game['id']}/undo", {"version": 1}).json()
    assert undone["version"] == 2 and undone["cards_on_foundations"] == 0
    new_game(alice_api, rule="C", replaces=game["id"])
    assert game["id"] in my_games(alice_api)


def test_a_daily_attempt_is_never_silently_deleted(alice_api: APIClient, settings: Any) -> None:
    settings.DAILY_SOLVER_NODES = 20_000
    ranked = alice_api.post("/api/v1/daily/play").json()
    assert ranked["ranked"] is True and ranked["version"] == 0
    new_game(alice_api, rule="C", replaces=ranked["id"])
    assert Game.objects.filter(pk=ranked["id"], daily_date=days.today()).exists()


def test_a_race_game_is_never_silently_deleted(
    alice_api: APIClient, bob_api: APIClient, settings: Any
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    racing = my_game(alice_api, running_race(alice_api, bob_api))
    new_game(alice_api, rule="C", replaces=racing)
    assert Game.objects.filter(pk=racing).exists()


def test_another_players_game_is_not_touched(alice_api: APIClient, bob_api: APIClient) -> None:
    hers = new_game(alice_api, code=CODE)
    new_game(bob_api, rule="C", replaces=hers["id"])
    assert my_games(alice_api) == [hers["id"]]


def test_replaces_names_a_game_id(alice_api: APIClient, alice: User) -> None:
    refused = post(alice_api, "/api/v1/games", {"rule": "C", "replaces": "the last one"})
    assert refused.status_code == 400
    assert "replaces" in refused.json()["error"]["fields"]
    assert Game.objects.filter(owner=alice).count() == 0
