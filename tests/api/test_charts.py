"""A player's charts (docs/api.md, "Charts"): their series, what stays hidden, one query each."""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts import moderation
from games import charts, services
from games.analysis.models import GameAnalysis
from games.days import today
from games.management.commands.seed_charts import CODE, seed_profile
from games.models import Game, Result
from games.puzzles.models import PuzzlePlayer
from games.races.models import Race, Racer, RaceRating
from tests.support.play import token_client, winning_line
from tests.support.puzzles import seeded
from tests.support.races import my_game, play_direct, running_race, win
from tests.support.schema import openapi

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def _finished(
    player: User, day_offset: int, *, won: bool, rule: str = "C", **extra: object
) -> Game:
    """A finished game (and its result) at noon `day_offset` days before today."""
    at = datetime.combine(today() - timedelta(days=day_offset), time(12), UTC)
    game = Game.objects.create(
        owner=player,
        code=CODE,
        rule=rule,
        status=Game.Status.WON if won else Game.Status.ABANDONED,
        move_count=100 if won else 30,
        cards_on_foundations=52 if won else 10,
        state={},
        finished_at=at,
        time_played=timedelta(seconds=300),
        **extra,
    )
    Result.objects.create(
        game=game,
        player=player,
        rule=rule,
        won=won,
        moves=game.move_count,
        duration=game.time_played,
        score=0,
        cards_on_foundations=game.cards_on_foundations,
        assisted=game.assisted,
        finished_at=at,
    )
    return game


def _chart(client: APIClient, name: str, player: str = "alice") -> dict[str, object]:
    response = client.get(f"/api/v1/players/{player}/charts/{name}")
    assert response.status_code == 200, response.content
    answer: dict[str, object] = response.json()
    return answer


def test_race_rating_follows_each_finished_race_with_its_band(alice: User, bob: User) -> None:
    for room, status, after in (("AAAA1111", "finished", 4.0), ("AAAA2222", "running", 9.0)):
        race = Race.objects.create(
            room=room, code=CODE, creator=alice, status=status, finished_at=datetime.now(UTC)
        )
        Racer.objects.create(
            race=race, player=alice, seat=1, active=False, place=1,
            rating_before=1.5, rating_after=after, sigma_after=7.25,
        )  # fmt: skip
    series = _chart(APIClient(), "race-rating")["series"]["C"]  # type: ignore[index]
    assert {key: values for key, values in series.items() if key != "at"} == {
        "rating": [4.0],
        "change": [2.5],
        "sigma": [7.25],
        "race": ["AAAA1111"],
        "place": [1],
    }


def test_a_rated_race_keeps_sigma_for_the_band(alice: User, bob: User, settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0  # the race runs once both are ready
    alice_api, bob_api = token_client(alice), token_client(bob)
    room = running_race(alice_api, bob_api, server_dealt=True)
    play_direct(bob, my_game(bob_api, room), winning_line()[1][:10])
    win(alice_api, room, alice)
    series = _chart(alice_api, "race-rating")["series"]
    rule = Race.objects.get(room=room).rule
    rating = RaceRating.objects.get(player=alice, rule=rule)
    assert series[rule]["sigma"] == [rating.sigma]  # type: ignore[index]
    assert series[rule]["rating"] == [rating.rating]  # type: ignore[index]


def test_a_rated_puzzle_answer_keeps_sigma_for_the_band(alice: User) -> None:
    (puzzle,) = seeded(1)
    client = token_client(alice)
    answer = client.post(
        f"/api/v1/puzzles/{puzzle.pk}/attempts", {"moves": puzzle.solution}, format="json"
    )
    assert answer.status_code == 200, answer.content
    points = _chart(client, "puzzle-rating")["points"]
    assert points["sigma"] == [PuzzlePlayer.objects.get(player=alice).sigma]  # type: ignore[index]
    assert points["solved"] == [True]  # type: ignore[index]


def test_dailies_rank_each_day_and_hide_today_from_others(alice: User, bob: User) -> None:
    _finished(alice, 3, won=False, daily_date=today() - timedelta(days=3), ranked=True)
    _finished(bob, 3, won=True, daily_date=today() - timedelta(days=3), ranked=True)
    _finished(alice, 2, won=True, daily_date=today() - timedelta(days=2), ranked=True)
    _finished(
        alice, 1, won=True, assisted=True, daily_date=today() - timedelta(days=1), ranked=True
    )
    _finished(alice, 0, won=True, daily_date=today(), ranked=True)
    cells = _chart(APIClient(), "dailies")["cells"]
    assert cells["state"] == ["played", "won-without-help", "won"]  # type: ignore[index]
    assert cells["rank"] == [2, 1, 1]  # type: ignore[index]
    own = APIClient()
    own.force_authenticate(alice)
    assert len(_chart(own, "dailies")["cells"]["date"]) == 4  # type: ignore[index]


def test_dailies_rank_leaves_marked_players_out(alice: User, bob: User) -> None:
    day = today() - timedelta(days=1)
    _finished(alice, 1, won=False, daily_date=day, ranked=True)
    _finished(bob, 1, won=True, daily_date=day, ranked=True)
    moderation.mark(bob, by=User.objects.create_user("warden"), reason="test")
    assert _chart(APIClient(), "dailies")["cells"]["rank"] == [1]  # type: ignore[index]


def test_win_rate_counts_each_week_per_rule(alice: User) -> None:
    monday = today() - timedelta(days=today().weekday() + 7)
    offset = (today() - monday).days
    for won in (True, True, False):
        _finished(alice, offset, won=won)
    _finished(alice, offset, won=False, rule="R")
    week = int(datetime.combine(monday, time(), UTC).timestamp())
    assert _chart(APIClient(), "win-rate")["series"] == {
        "C": {"at": [week], "games": [3], "wins": [2]},
        "R": {"at": [week], "games": [1], "wins": [0]},
    }


def test_wins_are_those_without_help_and_hide_a_running_daily(alice: User) -> None:
    plain = _finished(alice, 5, won=True)
    _finished(alice, 4, won=True, assisted=True)
    _finished(alice, 3, won=False)
    _finished(alice, 0, won=True, daily_date=today(), ranked=True)
    wins = _chart(APIClient(), "wins")["series"]["C"]  # type: ignore[index]
    assert (wins["game"], wins["seconds"], wins["moves"]) == ([plain.pk], [300.0], [100])


def test_turning_points_count_lost_games_per_move(alice: User) -> None:
    for days, version in ((5, 12), (4, 12), (3, 20)):
        game = _finished(alice, days, won=False)
        GameAnalysis.objects.create(
            game=game, node_budget=1, turning="lost", losing_version=version
        )
    running = _finished(alice, 0, won=False, daily_date=today(), ranked=True)
    GameAnalysis.objects.create(game=running, node_budget=1, turning="lost", losing_version=7)
    assert _chart(APIClient(), "turning-points")["series"] == {
        "C": {"move": [12, 20], "games": [2, 1]}
    }


def test_a_marked_players_charts_are_refused_to_others_not_to_them(alice: User) -> None:
    moderation.mark(alice, by=User.objects.create_user("warden"), reason="test")
    response = APIClient().get("/api/v1/players/alice/charts/wins")
    assert response.status_code == 404
    own = APIClient()
    own.force_authenticate(alice)
    assert own.get("/api/v1/players/alice/charts/wins").status_code == 200


def test_an_unknown_chart_is_a_404_naming_the_charts(alice: User) -> None:
    response = APIClient().get("/api/v1/players/alice/charts/elo")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown-chart"


def test_each_chart_of_a_seeded_profile_is_one_query_and_cached_for_others(alice: User) -> None:
    seed_profile(alice, 120)
    anonymous = User()  # an unsaved user stands for any other viewer
    for name in charts.CHARTS:
        with CaptureQueriesContext(connection) as fresh:
            answer = charts.chart(name, alice, anonymous)
        assert len(fresh) == 1, name
        assert any(answer[key] for key in ("series", "points", "cells") if key in answer), name
        assert json.dumps(answer)  # plain JSON, nothing left for the renderer
        with CaptureQueriesContext(connection) as cached:
            assert charts.chart(name, alice, anonymous) == answer
        assert len(cached) == 0, name


def test_the_schema_documents_the_charts_and_their_refusal() -> None:
    operation = openapi()["paths"]["/api/v1/players/{username}/charts/{chart}"]["get"]
    chart = next(p for p in operation["parameters"] if p["name"] == "chart")
    assert sorted(chart["schema"]["enum"]) == sorted(charts.CHARTS)
    assert "unknown-chart" in str(operation["responses"]["404"])


def test_retries_never_reach_the_win_rate_nor_the_wins(alice: User) -> None:
    """The charts count what the statistics count (games.fairness.counting): a win's last
    move retried and won again adds nothing (else retries farm a 100 % win rate)."""
    code, line = winning_line()
    game = services.start_game(alice, code=code)
    play_direct(alice, game.pk, line)
    won = Game.objects.get(pk=game.pk)
    retry = services.retry_from(alice, won.pk, won.version - 1)
    services.play_move(alice, retry.pk, move=line[-1], version=retry.version)
    assert Result.objects.filter(player=alice, won=True).count() == 2
    rates = charts.win_rate(alice, own=True)["series"]["C"]
    assert (rates["games"], rates["wins"]) == ([1], [1])
    assert charts.wins(alice, own=True)["series"]["C"]["game"] == [won.pk]
