"""Today's daily deal cannot be rehearsed: a player sees none of its cards outside the ranked
attempt until that attempt has ended (no practice game, no retry, no game typed from the
code). docs/fair-play.md states the rule."""

from __future__ import annotations

import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from tests.support.play import post, token_client
from tests.support.races import ok, refused, resign

PENDING = "ranked-attempt-pending"


def test_a_second_daily_play_while_the_ranked_attempt_runs_is_refused(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    assert ranked["ranked"] and ranked["origin"] == "daily-ranked"
    refused(post(alice_api, "/api/v1/daily/play", {}), 409, PENDING)
    assert Game.objects.filter(owner__username="alice").count() == 1
    assert not ok(alice_api.get("/api/v1/daily"))["practice_open"]  # the page says why

    resign(alice_api, ranked["id"])
    assert ok(alice_api.get("/api/v1/daily"))["practice_open"]
    practice = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    assert not practice["ranked"] and practice["origin"] == "daily-practice"


def test_todays_daily_code_typed_before_the_ranked_attempt_ends_is_refused(
    clock: time_machine.Traveller, alice_api: APIClient, bob: User
) -> None:
    leaked = ok(post(token_client(bob), "/api/v1/daily/play", {}), 201)
    code = Game.objects.get(pk=leaked["id"]).code
    refused(post(alice_api, "/api/v1/games", {"code": code}), 409, PENDING)  # not started yet
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    refused(post(alice_api, "/api/v1/games", {"code": code}), 409, PENDING)  # in play
    resign(alice_api, ranked["id"])
    assert ok(post(alice_api, "/api/v1/games", {"code": code}), 201)["origin"] == "fresh"


def test_a_rehearsal_left_from_before_cannot_be_retried_while_the_ranked_attempt_runs(
    clock: time_machine.Traveller, alice: User, alice_api: APIClient
) -> None:
    """A practice game already played (before this rule) opens no retry either."""
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    old = Game.objects.get(pk=ranked["id"])
    rehearsal = Game.objects.create(
        owner=alice,
        code=old.code,
        rule=old.rule,
        state=old.state,
        daily_date=old.daily_date,
        origin=Game.Origin.DAILY_PRACTICE,
        status=Game.Status.ABANDONED,
    )
    refused(post(alice_api, f"/api/v1/games/{rehearsal.pk}/retry", {"version": 0}), 409, PENDING)
