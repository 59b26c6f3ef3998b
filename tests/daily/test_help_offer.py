"""A game's state tells its reader, before they ask, whether the solver's help on it would be
given and why not (games.fairness.solver_help's rule, answered by GET /games/{id}): a practice
game of today's daily left from before rehearsals were refused says no while the ranked
attempt runs, yes once it ends."""

from __future__ import annotations

import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from tests.daily.helpers import left_from_before
from tests.support.play import post
from tests.support.races import ok, resign


def help_of(client: APIClient, game_id: int) -> dict[str, object]:
    return dict(ok(client.get(f"/api/v1/games/{game_id}"), 200)["help"])


def test_the_state_says_help_waits_for_the_ranked_attempt_and_then_opens(
    clock: time_machine.Traveller, alice: User, alice_api: APIClient
) -> None:
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    practice = {"id": left_from_before(alice, Game.objects.get(pk=ranked["id"])).pk}
    refused = help_of(alice_api, practice["id"])
    assert refused["available"] is False
    assert refused["refusal"] == "deal-in-play"
    assert "ranked attempt of this deal in play" in str(refused["message"])
    assert help_of(alice_api, ranked["id"]) == {
        "available": True,
        "refusal": None,
        "message": None,
    }
    resign(alice_api, ranked["id"])
    assert help_of(alice_api, practice["id"])["available"] is True


def test_the_sentence_is_in_the_readers_language(
    clock: time_machine.Traveller, alice: User, alice_api: APIClient
) -> None:
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    practice = {"id": left_from_before(alice, Game.objects.get(pk=ranked["id"])).pk}
    answer = alice_api.get(f"/api/v1/games/{practice['id']}", HTTP_ACCEPT_LANGUAGE="de")
    assert "ranked attempt" not in ok(answer, 200)["help"]["message"]
