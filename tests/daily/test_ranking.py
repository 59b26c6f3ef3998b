"""The daily ranking: winners by moves then time, the rest by cards home then moves, ties shared."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import daily, deals
from games.engine import private_form
from games.models import Game
from tests.daily.helpers import DAY, at
from tests.support.play import token_client


def ranked_game(
    name: str, status: str, moves: int, cards: int, seconds: int = 600, assisted: bool = False
) -> Game:
    """A ranked game row of DAY with the given outcome (the ranking reads only these fields)."""
    player = User.objects.create_user(name)
    deal = daily.deal_for(DAY)
    start = at(DAY, hour=1)
    return Game.objects.create(
        owner=player,
        code=str(daily.code_of(deal)),
        state=private_form(deals.new_game(daily.code_of(deal))),
        daily_date=DAY,
        ranked=True,
        assisted=assisted,
        status=status,
        move_count=moves,
        cards_on_foundations=cards,
        first_move_at=start,
        last_move_at=start + timedelta(seconds=seconds),
        time_played=timedelta(seconds=seconds),
        finished_at=start + timedelta(seconds=seconds) if status != "active" else None,
    )


@pytest.fixture
def field(db: None) -> None:
    ranked_game("slow", "won", 100, 52, seconds=500)
    ranked_game("tied", "won", 100, 52, seconds=500)
    ranked_game("short", "won", 95, 52, seconds=900)
    ranked_game("quick", "won", 100, 52, seconds=300)
    ranked_game("far", "abandoned", 200, 40)
    ranked_game("busy", "abandoned", 80, 30)
    ranked_game("playing", "active", 80, 30)
    ranked_game("lean", "abandoned", 60, 30)
    ranked_game("hinted", "won", 90, 52, seconds=100, assisted=True)


def test_winners_rank_by_moves_then_time_and_ties_share_a_rank(
    clock: time_machine.Traveller, field: None
) -> None:
    ranking = APIClient().get(f"/api/v1/daily/{DAY}").json()
    table = [(row["player"], row["rank"]) for row in ranking["results"]]
    assert table == [
        ("short", 1),
        ("quick", 2),
        ("slow", 3),
        ("tied", 3),
        ("far", 5),
        ("lean", 6),
        ("busy", 7),
        ("playing", 7),
    ]
    assert ranking["count"] == 8
    assert ranking["me"] is None


def test_assisted_games_are_ranked_apart(clock: time_machine.Traveller, field: None) -> None:
    ranking = APIClient().get(f"/api/v1/daily/{DAY}", {"assisted": "true"}).json()
    assert [(row["player"], row["rank"]) for row in ranking["results"]] == [("hinted", 1)]


def test_a_player_sees_their_rank_outside_the_page(
    clock: time_machine.Traveller, field: None
) -> None:
    client = token_client(User.objects.get(username="playing"))
    ranking = client.get(f"/api/v1/daily/{DAY}", {"page_size": 2}).json()
    assert [row["player"] for row in ranking["results"]] == ["short", "quick"]
    assert (ranking["me"]["player"], ranking["me"]["rank"]) == ("playing", 7)
    assert ranking["next"] is not None
