"""The solver's help on a deal waits while the player has a ranked attempt of it in play: a
game of today's daily deal left from before rehearsals were refused (tests/daily/
test_rehearsal.py), or a game of a deal the player is racing, gets no hint, winnability or
analysis until the ranked attempt (or the race) ends (races: tests/races/test_secrecy.py)."""

from __future__ import annotations

import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from tests.daily.helpers import left_from_before
from tests.support.play import new_game, post
from tests.support.races import ok, refused, resign

ASKS = ("hint", "winnability")


def ask(client: APIClient, game_id: int, question: str) -> int:
    return int(post(client, f"/api/v1/games/{game_id}/{question}", {}).status_code)


def test_a_practice_game_gets_no_help_while_the_ranked_attempt_runs(
    clock: time_machine.Traveller, alice: User, alice_api: APIClient
) -> None:
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    practice = left_from_before(alice, Game.objects.get(pk=ranked["id"]))
    for question in ASKS:
        refused(post(alice_api, f"/api/v1/games/{practice.pk}/{question}", {}), 409, "deal-in-play")
    assert not Game.objects.get(pk=practice.pk).assisted
    resign(alice_api, practice.pk)
    refused(alice_api.get(f"/api/v1/games/{practice.pk}/analysis"), 409, "deal-in-play")

    assert ask(alice_api, ranked["id"], "hint") in (200, 202)  # help on the ranked game itself
    assert Game.objects.get(pk=ranked["id"]).assisted  # ...marks it assisted, as always
    other = new_game(alice_api, rule="C")  # any other deal: help as usual
    assert ask(alice_api, other["id"], "hint") in (200, 202)
    resign(alice_api, ranked["id"])

    again = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    assert ask(alice_api, again["id"], "hint") in (200, 202)
    assert alice_api.get(f"/api/v1/games/{practice.pk}/analysis").status_code == 200
