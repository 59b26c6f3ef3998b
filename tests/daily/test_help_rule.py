"""The solver's help on a deal waits while the player has a ranked attempt of it in play: a
practice game of today's daily, a game typed from its code, or a game of a deal the player is
racing gets no hint, winnability or analysis until the ranked attempt (or the race) ends
(races: tests/races/test_secrecy.py)."""

from __future__ import annotations

import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from tests.support.play import new_game, post, token_client, winning_line
from tests.support.races import ok, refused, resign

ASKS = ("hint", "winnability")


def ask(client: APIClient, game_id: int, question: str) -> int:
    return int(post(client, f"/api/v1/games/{game_id}/{question}", {}).status_code)


def test_a_practice_game_gets_no_help_while_the_ranked_attempt_runs(
    clock: time_machine.Traveller, alice_api: APIClient
) -> None:
    ranked = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    practice = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    assert ranked["ranked"] and not practice["ranked"]
    for question in ASKS:
        refused(
            post(alice_api, f"/api/v1/games/{practice['id']}/{question}", {}), 409, "deal-in-play"
        )
    assert not Game.objects.get(pk=practice["id"]).assisted
    resign(alice_api, practice["id"])
    refused(alice_api.get(f"/api/v1/games/{practice['id']}/analysis"), 409, "deal-in-play")

    assert ask(alice_api, ranked["id"], "hint") in (200, 202)  # help on the ranked game itself
    assert Game.objects.get(pk=ranked["id"]).assisted  # ...marks it assisted, as always
    resign(alice_api, ranked["id"])

    again = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    assert ask(alice_api, again["id"], "hint") in (200, 202)
    assert alice_api.get(f"/api/v1/games/{practice['id']}/analysis").status_code == 200


def test_a_game_typed_from_todays_daily_code_waits_for_the_ranked_attempt(
    clock: time_machine.Traveller, alice_api: APIClient, bob: User
) -> None:
    leaked = ok(post(token_client(bob), "/api/v1/daily/play", {}), 201)
    code = Game.objects.get(pk=leaked["id"]).code
    typed = new_game(alice_api, code=code)
    refused(post(alice_api, f"/api/v1/games/{typed['id']}/hint", {}), 409, "deal-in-play")
    other_code = winning_line()[0]  # another deal: help as usual
    assert other_code != code
    other = new_game(alice_api, code=other_code)
    assert ask(alice_api, other["id"], "hint") in (200, 202)
