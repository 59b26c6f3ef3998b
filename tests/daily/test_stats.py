"""Statistics and leaderboards: daily streaks across days, mixed results, shared ranks."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import Game, PlayerStats
from tests.daily.helpers import DAY, abandon, at, play_daily, win
from tests.support.play import token_client, winning_line


def daily_stats(client: APIClient, name: str) -> tuple[int, int]:
    classic = client.get(f"/api/v1/players/{name}").json()["stats"]["C"]
    return classic["current_daily_streak"], classic["best_daily_streak"]


def test_the_daily_streak_counts_consecutive_won_ranked_days(
    clock: time_machine.Traveller, alice: User
) -> None:
    public = APIClient()
    win(alice, play_daily(alice))
    clock.move_to(at(DAY + timedelta(days=1)))
    win(alice, play_daily(alice))
    assert daily_stats(public, "alice") == (2, 2)

    clock.move_to(at(DAY + timedelta(days=2)))
    abandon(alice, play_daily(alice))
    win(alice, play_daily(alice))  # practice: no streak
    assert daily_stats(public, "alice") == (2, 2)  # yesterday's streak still alive today

    clock.move_to(at(DAY + timedelta(days=3), hour=23))
    assert daily_stats(public, "alice") == (0, 2)
    win(alice, play_daily(alice))
    assert daily_stats(public, "alice") == (1, 2)
    board = public.get("/api/v1/leaderboards/daily-streak").json()
    assert [(row["player"], row["rank"], row["best_daily_streak"]) for row in board["results"]] == [
        ("alice", 1, 2)
    ]


def play_known_deal(
    player: User, clock: time_machine.Traveller, *, won: bool, seconds_per_move: float = 1.0
) -> Game:
    code, moves = winning_line()
    game = services.start_game(player, code=code)
    for move in moves if won else moves[:10]:
        clock.shift(seconds_per_move)
        game = services.play_move(player, game.pk, move=move, version=game.version).game
    return game if won else abandon(player, game)


def test_statistics_after_mixed_results(
    clock: time_machine.Traveller, alice: User, bob: User, carol: User
) -> None:
    _, line = winning_line()
    fast = play_known_deal(alice, clock, won=True, seconds_per_move=2)
    play_known_deal(alice, clock, won=False)
    hinted = services.start_game(alice, code=winning_line()[0])
    Game.objects.filter(pk=hinted.pk).update(assisted=True)  # as if a hint had been used
    for move in line:
        hinted = services.play_move(alice, hinted.pk, move=move, version=hinted.version).game
    play_known_deal(alice, clock, won=True, seconds_per_move=3)
    play_known_deal(bob, clock, won=True)
    play_known_deal(carol, clock, won=True)

    public = APIClient()
    stats = public.get("/api/v1/players/alice").json()["stats"]
    assert stats["R"]["games"] == 0 and stats["R"]["win_rate"] is None
    classic = stats["C"]
    assert (classic["games"], classic["wins"], classic["win_rate"]) == (4, 3, 0.75)
    assert (classic["current_streak"], classic["best_streak"]) == (2, 2)
    assert classic["best_time_seconds"] == 2 * (len(line) - 1)  # the hinted win took no time
    assert classic["best_time_game"] == fast.pk
    assert classic["fewest_moves"] == len(line)
    assert classic["best_score"] == 625

    history = public.get("/api/v1/players/alice/history", {"page_size": 3}).json()
    assert history["count"] == 4
    assert [entry["won"] for entry in history["results"]] == [True, True, False]
    assert history["results"][1]["assisted"] is True

    wins = token_client(carol).get("/api/v1/leaderboards/wins", {"page_size": 1}).json()
    assert [(row["player"], row["rank"]) for row in wins["results"]] == [("alice", 1)]
    assert (wins["me"]["player"], wins["me"]["rank"]) == ("carol", 2)
    fastest = public.get("/api/v1/leaderboards/fastest").json()["results"]
    assert [row["rank"] for row in fastest] == [1, 1, 3]  # bob and carol tie at 1 s a move
    assert public.get("/api/v1/leaderboards/win-rate").json()["count"] == 0  # under 20 games
    assert public.get("/api/v1/leaderboards/wins", {"rule": "R"}).json()["count"] == 0
    assert public.get("/api/v1/leaderboards/most-score").status_code == 404


def test_a_daily_practice_game_counts_for_nothing(
    clock: time_machine.Traveller, alice: User
) -> None:
    ranked = abandon(alice, play_daily(alice))
    practice = win(alice, play_daily(alice))
    assert not practice.ranked and ranked.ranked
    stats = PlayerStats.objects.get(player=alice, rule="C")
    assert (stats.games, stats.wins, stats.fewest_moves, stats.best_daily_streak) == (1, 0, None, 0)
