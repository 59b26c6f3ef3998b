"""Days in requests, ranked games frozen by their day's close, and the one rule for assists."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from games import daily
from games.engine import CLASSIC, GameCode
from games.models import DailyDeal, Game
from tests.daily.helpers import DAY, at
from tests.support.tasks import run_next_task


def error_code(response: object) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("day", ["garbage", "2026-02-30", "2026-13-01", "20261201", "2026-1-01"])
def test_a_day_that_is_no_date_is_a_400_invalid_date(
    clock: time_machine.Traveller, bob_api: APIClient, day: str
) -> None:
    assert error_code(bob_api.get(f"/api/v1/daily/{day}")) == (400, "invalid-date")
    assert error_code(bob_api.get(f"/api/v1/daily/{day}/games/1/replay")) == (400, "invalid-date")


def test_a_day_to_come_is_a_404_day_not_come_and_an_old_unplayed_day_not_found(
    clock: time_machine.Traveller, bob_api: APIClient
) -> None:
    assert error_code(bob_api.get(f"/api/v1/daily/{DAY + timedelta(days=1)}")) == (
        404,
        "day-not-come",
    )
    long_ago = DAY - timedelta(days=daily.DAYS_DEALT_AFTERWARDS + 1)
    assert error_code(bob_api.get(f"/api/v1/daily/{long_ago}")) == (404, "not-found")
    assert not DailyDeal.objects.filter(date=long_ago).exists()


def test_a_past_day_nobody_played_shows_its_code_and_the_solvers_line(
    clock: time_machine.Traveller, bob_api: APIClient
) -> None:
    """Its deal is the one the day would have dealt: chosen now from the same candidates."""
    day = DAY - timedelta(days=9)
    ranking = bob_api.get(f"/api/v1/daily/{day}").json()
    expected = daily.choose(day)
    assert ranking["code"] == str(GameCode(CLASSIC, expected.number))
    assert (ranking["open"], ranking["count"], ranking["results"]) == (False, 0, [])
    assert bob_api.get(f"/api/v1/daily/{day}/line").json()["status"] == "pending"
    while run_next_task():
        pass
    line = bob_api.get(f"/api/v1/daily/{day}/line").json()
    assert (line["status"], line["verdict"]) == ("done", "winnable")
    assert line["steps"][-1]["foundations"] == [
        {"suit": suit, "count": 13, "top": f"K{suit}"} for suit in "SHDC"
    ]


def test_the_ranking_counts_each_section_so_empty_states_can_agree(
    clock: time_machine.Traveller, alice_api: APIClient, bob_api: APIClient
) -> None:
    game = alice_api.post("/api/v1/daily/play").json()["id"]
    Game.objects.filter(pk=game).update(assisted=True)
    assert bob_api.get("/api/v1/daily").json()["players"] == 1
    ranking = bob_api.get(f"/api/v1/daily/{DAY}").json()
    assert ranking["results"] == []
    assert ranking["sections"] == {"without_hints": 0, "with_hints": 1}
    bob_api.post("/api/v1/daily/play")
    ranking = bob_api.get(f"/api/v1/daily/{DAY}", {"assisted": "true"}).json()
    assert ranking["sections"] == {"without_hints": 1, "with_hints": 1}
    assert [row["player"] for row in ranking["results"]] == ["alice"]


def test_a_ranked_game_of_a_closed_day_is_frozen_with_its_clock_stopped(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    clock.move_to(at(DAY, hour=23) + timedelta(minutes=59))
    state = alice_api.post("/api/v1/daily/play").json()
    body = {"move": state["legal_moves"][0], "version": state["version"]}
    state = alice_api.post(f"/api/v1/games/{state['id']}/moves", body, format="json").json()
    assert state["closed"] is False
    clock.move_to(at(DAY + timedelta(days=1), hour=5))

    frozen = alice_api.get(f"/api/v1/games/{state['id']}").json()
    assert frozen["status"] == "active"
    assert frozen["closed"] is True
    assert frozen["legal_moves"] == []
    assert frozen["undo_depth"] == 0
    assert frozen["elapsed_seconds"] == 60  # 23:59 to the day's close, not to 05:00
    hint = alice_api.post(f"/api/v1/games/{state['id']}/hint")
    assert error_code(hint) == (409, "daily-closed")
    body = {"move": state["legal_moves"][0], "version": state["version"]}
    refused = alice_api.post(f"/api/v1/games/{state['id']}/moves", body, format="json")
    assert error_code(refused) == (409, "daily-closed")
    # A page still showing it live catches up (the public state: `help` is each reader's).
    assert refused.json()["error"]["state"] == {k: v for k, v in frozen.items() if k != "help"}
    assert not Game.objects.get(pk=state["id"]).assisted

    practice = alice_api.post("/api/v1/games", {"rule": "C"}, format="json").json()
    assert practice["closed"] is False


def test_every_board_and_the_profile_say_how_they_treat_assisted_games(
    clock: time_machine.Traveller, bob_api: APIClient
) -> None:
    boards = {board["name"]: board for board in bob_api.get("/api/v1/leaderboards").json()}
    counted = {name for name, board in boards.items() if board["counts_assisted"]}
    assert counted == {"wins", "win-rate"}
    assert boards["win-rate"]["min_games"] == 20
    page = bob_api.get("/api/v1/leaderboards/fastest").json()
    assert page["counts_assisted"] is False
    profile = bob_api.get("/api/v1/players/bob").json()
    assert set(profile["assisted_games"]["excluded"]) == {
        "best_time",
        "fewest_moves",
        "daily_streak",
    }
    assert {"wins", "win_rate"} <= set(profile["assisted_games"]["counted"])


def test_board_titles_are_in_the_requests_language(db: None) -> None:
    boards = APIClient().get("/api/v1/leaderboards", HTTP_ACCEPT_LANGUAGE="de").json()
    titles = {board["name"]: board["title"] for board in boards}
    assert titles["wins"] == "Meiste Siege"
    assert "20" in titles["win-rate"]
    assert "Most" not in titles["wins"]
