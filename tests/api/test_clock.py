"""The game clock through the API: time at the table from the first move, stopped while the
game is parked, a vanished client costing at most the idle cap, one clock for every client."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from rest_framework.test import APIClient

from games.clock import IDLE_CAP
from tests.support.play import new_game, post, token_client, winning_line

CODE, LINE = winning_line()
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def play(client: APIClient, state: dict[str, Any], move: str) -> dict[str, Any]:
    answer = post(
        client, f"/api/v1/games/{state['id']}/moves", {"move": move, "version": state["version"]}
    )
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def clock_call(client: APIClient, state: dict[str, Any], what: str) -> dict[str, Any]:
    answer = client.post(f"/api/v1/games/{state['id']}/{what}")
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def test_a_parked_game_keeps_its_time_and_runs_again_on_resume(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    """The issue's case: three moves, kept for later, back much later."""
    state = new_game(alice_api, code=CODE)
    for move in LINE[:3]:
        clock.shift(timedelta(seconds=20))
        state = play(alice_api, state, move)
    assert state["elapsed_seconds"] == 40  # from the first move
    assert state["clock_running"] is True
    clock.shift(timedelta(seconds=15))
    parked = clock_call(alice_api, state, "park")
    assert parked["elapsed_seconds"] == 55
    assert parked["clock_running"] is False
    assert parked["version"] == state["version"]  # no move, no version

    clock.shift(timedelta(hours=13))
    assert alice_api.get(f"/api/v1/games/{state['id']}").json()["elapsed_seconds"] == 55
    resumed = clock_call(alice_api, state, "resume")
    assert resumed["elapsed_seconds"] == 55 and resumed["clock_running"] is True
    clock.shift(timedelta(seconds=30))
    state = play(alice_api, resumed, LINE[3])
    assert state["elapsed_seconds"] == 85


def test_a_move_after_a_park_starts_the_clock_from_that_move(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    """A client that never resumes: its moves run the clock, the parked stretch never counts."""
    state = play(alice_api, new_game(alice_api, code=CODE), LINE[0])
    clock.shift(timedelta(seconds=10))
    clock_call(alice_api, state, "park")
    clock.shift(timedelta(hours=2))
    state = play(alice_api, state, LINE[1])
    assert state["elapsed_seconds"] == 10
    clock.shift(timedelta(seconds=5))
    assert play(alice_api, state, LINE[2])["elapsed_seconds"] == 15


def test_a_client_that_vanishes_without_a_goodbye_costs_at_most_the_idle_cap(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    state = play(alice_api, new_game(alice_api, code=CODE), LINE[0])
    clock.shift(timedelta(hours=5))  # the laptop closed: no park, no resume
    later = alice_api.get(f"/api/v1/games/{state['id']}").json()
    assert later["elapsed_seconds"] == IDLE_CAP.total_seconds()
    assert later["clock_running"] is False
    assert play(alice_api, state, LINE[1])["elapsed_seconds"] == IDLE_CAP.total_seconds()


def test_resumes_keep_a_long_think_whole(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    """The open table says it is still there (a resume a minute): ten minutes count as ten."""
    state = play(alice_api, new_game(alice_api, code=CODE), LINE[0])
    for _ in range(10):
        clock.shift(timedelta(minutes=1))
        clock_call(alice_api, state, "resume")
    assert play(alice_api, state, LINE[1])["elapsed_seconds"] == 600


def test_the_clock_stands_still_before_the_first_move(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    state = new_game(alice_api, code=CODE)
    clock.shift(timedelta(minutes=1))
    resumed = clock_call(alice_api, state, "resume")
    assert resumed["elapsed_seconds"] == 0 and resumed["clock_running"] is False
    clock.shift(timedelta(minutes=1))
    assert play(alice_api, state, LINE[0])["elapsed_seconds"] == 0


def test_a_won_game_keeps_the_time_it_took(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    state = new_game(alice_api, code=CODE)
    for move in LINE:
        clock.shift(timedelta(seconds=2))
        state = play(alice_api, state, move)
    played = 2 * (len(LINE) - 1)
    assert state["status"] == "won" and state["elapsed_seconds"] == played
    clock.shift(timedelta(hours=1))
    assert clock_call(alice_api, state, "resume")["elapsed_seconds"] == played
    assert clock_call(alice_api, state, "park")["elapsed_seconds"] == played
    stats = alice_api.get("/api/v1/players/alice").json()
    assert stats["stats"]["C"]["best_time_seconds"] == played


def test_every_client_sees_the_same_clock(
    clock: time_machine.Traveller, alice_api: APIClient, bob_api: APIClient, alice: Any
) -> None:
    """A third-party client of the same player, and a spectator, read the one server clock."""
    state = play(alice_api, new_game(alice_api, code=CODE), LINE[0])
    clock.shift(timedelta(seconds=42))
    script = token_client(alice)
    mine = script.get(f"/api/v1/games/{state['id']}").json()
    watched = bob_api.get(f"/api/v1/games/{state['id']}").json()
    assert mine["elapsed_seconds"] == watched["elapsed_seconds"] == 42
    assert mine["clock_running"] is watched["clock_running"] is True


def test_only_the_owner_parks_or_resumes(alice_api: APIClient, bob_api: APIClient) -> None:
    state = new_game(alice_api, code=CODE)
    for what in ("park", "resume"):
        refused = bob_api.post(f"/api/v1/games/{state['id']}/{what}")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not-your-game"
        missing = alice_api.post(f"/api/v1/games/999999/{what}")
        assert missing.status_code == 404
        assert APIClient().post(f"/api/v1/games/{state['id']}/{what}").status_code == 401
