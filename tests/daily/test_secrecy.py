"""A running daily deal stays secret: no code, and nobody else's board or log, until it closes."""

from __future__ import annotations

import json
from datetime import timedelta

import time_machine
from django.contrib.auth.models import User
from pytest_django import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from games import daily
from games.models import DailyDeal, Game
from tests.daily.helpers import DAY, Lobby, abandon, at


def test_the_code_is_hidden_until_the_day_closes(
    clock: time_machine.Traveller,
    alice: User,
    alice_api: APIClient,
    bob_api: APIClient,
    lobby: Lobby,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        state = alice_api.post("/api/v1/daily/play").json()
        game = Game.objects.get(pk=state["id"])
        move = {"move": state["legal_moves"][0], "version": 0}
        alice_api.post(f"/api/v1/games/{game.pk}/moves", move, format="json")
        abandon(alice, Game.objects.get(pk=game.pk))
    code = game.code
    pushed = lobby.until("result")
    # Nobody may watch it while the day runs: the lobby's watch list never hears of it, not
    # even its end; the day's public ranking gets its row.
    assert [e["t"] for e in pushed] == ["result"]
    assert pushed[-1]["d"]["player"] == "alice"
    ranking = bob_api.get(f"/api/v1/daily/{DAY}").json()["results"]
    assert set(pushed[-1]["d"]) - {"daily", "rule", "player"} <= set(ranking[0])

    own_views = [
        alice_api.get(f"/api/v1/games/{game.pk}"),
        alice_api.get("/api/v1/games"),
        alice_api.get(f"/api/v1/games/{game.pk}/log"),
        alice_api.get("/api/v1/daily"),
        bob_api.get(f"/api/v1/daily/{DAY}"),
        bob_api.get("/api/v1/players/alice/history"),
    ]
    assert all(response.status_code == 200 for response in own_views)
    for text in [r.content.decode() for r in own_views] + [json.dumps(pushed)]:
        assert code not in text
    assert own_views[0].json()["code"] is None
    assert own_views[0].json()["daily"] == DAY.isoformat()

    for path in (f"/api/v1/games/{game.pk}", f"/api/v1/games/{game.pk}/log"):
        refused = bob_api.get(path)
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "daily-in-progress"
    assert bob_api.get(f"/api/v1/daily/{DAY}/games/{game.pk}/replay").status_code == 403

    clock.move_to(at(DAY + timedelta(days=1), hour=0))
    assert bob_api.get(f"/api/v1/games/{game.pk}").json()["code"] == code
    assert bob_api.get(f"/api/v1/daily/{DAY}").json()["code"] == code
    assert bob_api.get(f"/api/v1/games/{game.pk}/log").status_code == 200
    assert bob_api.get("/api/v1/daily").json()["code"] is None  # the new day's deal


def test_a_closed_day_replays_every_step(
    clock: time_machine.Traveller, alice_api: APIClient, bob_api: APIClient
) -> None:
    state = alice_api.post("/api/v1/daily/play").json()
    for _ in range(3):
        body = {"move": state["legal_moves"][0], "version": state["version"]}
        state = alice_api.post(f"/api/v1/games/{state['id']}/moves", body, format="json").json()
    state = alice_api.post(
        f"/api/v1/games/{state['id']}/undo", {"version": state["version"]}, format="json"
    ).json()
    clock.move_to(at(DAY + timedelta(days=1)))
    replay = bob_api.get(f"/api/v1/daily/{DAY}/games/{state['id']}/replay").json()
    steps = replay["steps"]
    assert [step["move"] for step in steps][-1] == "undo"
    assert len(steps) == 5
    assert steps[-1]["columns"] == state["columns"]
    assert steps[-1]["move_count"] == state["move_count"] == 3
    assert replay["game"]["code"] == str(daily.code_of(DailyDeal.objects.get(date=DAY)))


def test_unknown_and_future_days_are_not_found(
    clock: time_machine.Traveller, bob_api: APIClient
) -> None:
    assert bob_api.get(f"/api/v1/daily/{DAY + timedelta(days=1)}").status_code == 404
    assert bob_api.get(f"/api/v1/daily/{DAY - timedelta(days=400)}").status_code == 404
    assert bob_api.get("/api/v1/daily/yesterday").status_code == 400


def test_a_practice_game_of_the_running_day_ends_unheard_by_the_lobby(
    clock: time_machine.Traveller,
    alice: User,
    alice_api: APIClient,
    lobby: Lobby,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Hidden from the lobby while the day runs, so its end is not announced there either.
    (Practice opens once the ranked attempt has ended: games.fairness.dealing.)"""
    with django_capture_on_commit_callbacks(execute=True):
        ranked = alice_api.post("/api/v1/daily/play").json()
        abandon(alice, Game.objects.get(pk=ranked["id"]))
    assert [(e["t"], e["d"]["game"]) for e in lobby.until("result")] == [("result", ranked["id"])]
    with django_capture_on_commit_callbacks(execute=True):
        practice = alice_api.post("/api/v1/daily/play").json()
        assert practice["origin"] == "daily-practice"
        abandon(alice, Game.objects.get(pk=practice["id"]))
        alice_api.post("/api/v1/games")  # a game the lobby shows, whose start ends the wait
    pushed = lobby.until("game-started")
    assert [e["t"] for e in pushed] == ["game-started"]
    assert pushed[0]["d"]["id"] != practice["id"]
