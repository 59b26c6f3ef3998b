"""A guest plays the daily deal for real, but is never ranked, counted or given a streak."""

from __future__ import annotations

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts import guests
from games.models import Game, PlayerStats
from tests.daily.helpers import DAY, play_daily, win
from tests.support.play import token_client

PASSWORD = "a-long-enough-passphrase"


@pytest.mark.django_db
def test_a_guests_daily_win_is_shown_to_the_guest_and_never_ranked(
    clock: time_machine.Traveller, carol: User
) -> None:
    guest = guests.create_guest()
    game = win(guest, play_daily(guest))
    assert game.daily_date == DAY
    assert not game.ranked
    win(carol, play_daily(carol))

    client = APIClient()
    client.force_login(guest)
    today = client.get("/api/v1/daily").json()
    assert today["attempts"] == [{"game": game.pk, "ranked": False, "status": "won"}]
    assert today["ranked_game"] is None
    assert today["players"] == 1
    ranking = client.get(f"/api/v1/daily/{DAY}").json()
    assert [row["player"] for row in ranking["results"]] == ["carol"]
    assert ranking["me"] is None
    assisted = client.get(f"/api/v1/daily/{DAY}?assisted=true").json()
    assert assisted["results"] == []
    assert game.origin == Game.Origin.DAILY_PRACTICE  # never ranked: practice, counts nothing
    assert not PlayerStats.objects.filter(player=guest).exists()
    streaks = client.get("/api/v1/leaderboards/daily-streak").json()
    assert [row["player"] for row in streaks["results"]] == ["carol"]


@pytest.mark.django_db
def test_after_signing_up_the_same_days_next_attempt_is_practice(
    clock: time_machine.Traveller,
) -> None:
    guest = guests.create_guest()
    first = play_daily(guest)
    guests.upgrade(guest, username="gina", password=PASSWORD)
    again = play_daily(guest)
    assert not first.ranked
    assert not again.ranked
    body = token_client(guest).get("/api/v1/daily").json()
    assert body["ranked_game"] is None
    assert [attempt["ranked"] for attempt in body["attempts"]] == [False, False]
