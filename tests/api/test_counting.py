"""What counts: retries and daily practice games never count for boards, streaks, records or
win rate (games.fairness.counting); docs/fair-play.md, "Counters"."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services, stats
from games.models import PlayerStats
from tests.support.play import new_game, post, winning_line
from tests.support.races import ok


def won_by_hand(client: APIClient) -> dict[str, Any]:
    code, line = winning_line()
    state = new_game(client, code=code)
    for move in line:
        state = ok(post(client, f"/api/v1/games/{state['id']}/moves",
                        {"move": move, "version": state["version"]}))  # fmt: skip
    assert state["status"] == "won"
    return state


def test_retrying_the_last_move_of_a_win_farms_nothing(alice_api: APIClient) -> None:
    """The issue's farm: 25 retries from one move before the end, each won in one move."""
    won = won_by_hand(alice_api)
    last = winning_line()[1][-1]
    for _ in range(25):
        retry = ok(post(alice_api, f"/api/v1/games/{won['id']}/retry",
                        {"version": won["version"] - 1}), 201)  # fmt: skip
        assert retry["origin"] == "retry"
        again = ok(post(alice_api, f"/api/v1/games/{retry['id']}/moves",
                        {"move": last, "version": retry["version"]}))  # fmt: skip
        assert again["status"] == "won"
    stats = ok(alice_api.get("/api/v1/players/alice"))["stats"]["C"]
    assert (stats["games"], stats["wins"], stats["best_streak"]) == (1, 1, 1)
    board = ok(alice_api.get("/api/v1/leaderboards/wins?rule=C"))
    assert [(row["player"], row["wins"]) for row in board["results"]] == [("alice", 1)]


def test_rebuilding_the_statistics_keeps_retries_out(alice: User, alice_api: APIClient) -> None:
    won = won_by_hand(alice_api)
    retry = services.retry_from(alice, int(won["id"]), int(won["version"]) - 1)
    services.play_move(alice, retry.pk, move=winning_line()[1][-1], version=retry.version)
    stats.rebuild(alice.pk, "C")
    row = PlayerStats.objects.get(player=alice, rule="C")
    assert (row.games, row.wins) == (1, 1)
