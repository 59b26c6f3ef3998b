"""Every game can be replayed (once nothing about it is secret), and a player can retry their
finished game from any position as a practice game."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games import deals, services
from games.models import Game, MoveLogEntry
from tests.support.play import new_game, post, token_client, winning_line
from tests.support.races import ok, refused
from tests.support.secrecy import face_down_cards, strings

pytestmark = pytest.mark.django_db


def played(client: APIClient, moves: list[str], *, finish: bool = True) -> int:
    state = new_game(client, code=winning_line()[0])
    for move in moves:
        state = ok(post(client, f"/api/v1/games/{state['id']}/moves",
                        {"move": move, "version": state["version"]}))  # fmt: skip
    if finish:
        ok(post(client, f"/api/v1/games/{state['id']}/resign", {"version": state["version"]}))
    return int(state["id"])


def test_a_finished_game_replays_step_by_step_for_anyone_naming_no_hidden_card(
    alice_api: APIClient,
) -> None:
    game = played(alice_api, winning_line()[1][:12])
    hidden = face_down_cards(game)
    for client in (alice_api, APIClient()):
        replay = ok(client.get(f"/api/v1/games/{game}/replay"))
        assert [step["seq"] for step in replay["steps"]] == list(range(13))
        assert replay["steps"][3]["move"] == winning_line()[1][2]
        assert not hidden.intersection(strings(replay)), json.dumps(replay)[:200]


def test_a_retry_starts_a_practice_game_from_the_chosen_position(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    line = winning_line()[1]
    game = played(alice_api, line[:12])
    retry = ok(post(alice_api, f"/api/v1/games/{game}/retry", {"version": 8}), 201)
    assert retry["id"] != game and retry["version"] == 8 and retry["move_count"] == 8
    assert retry["status"] == "active" and retry["assisted"] and not retry["ranked"]
    assert retry["code"] == winning_line()[0]
    copied = MoveLogEntry.objects.filter(game_id=retry["id"]).values_list("text", flat=True)
    assert list(copied) == line[:8]
    moved = ok(
        post(alice_api, f"/api/v1/games/{retry['id']}/moves", {"move": line[8], "version": 8})
    )
    assert moved["version"] == 9
    out = StringIO()
    call_command("verify_games", stdout=out)  # the retry replays like any game
    refused(post(bob_api, f"/api/v1/games/{game}/retry", {"version": 1}), 403, "not-your-game")
    refused(post(alice_api, f"/api/v1/games/{game}/retry", {"version": 13}), 400, "no-such-version")
    unfinished = played(alice_api, line[:3], finish=False)
    refused(
        post(alice_api, f"/api/v1/games/{unfinished}/retry", {"version": 1}),
        409,
        "game-not-finished",
    )


def test_a_daily_games_retry_keeps_its_day_and_its_secret(alice: User, bob_api: APIClient) -> None:
    game = services.start_game(alice, daily=True)
    move = services.play_move(alice, game.pk, move=_first_legal(game), version=0).game
    ended = services.resign(alice, move.pk, version=move.version).game
    retry = ok(post(token_client(alice), f"/api/v1/games/{ended.pk}/retry", {"version": 1}), 201)
    assert ended.daily_date is not None
    assert retry["daily"] == ended.daily_date.isoformat() and retry["code"] is None
    assert not retry["ranked"]
    refused(bob_api.get(f"/api/v1/games/{retry['id']}/replay"), 403, "daily-in-progress")
    assert Game.objects.get(pk=retry["id"]).daily_date == ended.daily_date


def _first_legal(game: Game) -> str:
    return str(sorted(deals.current(game).legal_moves, key=str)[0])


def test_a_retry_of_a_won_games_final_position_is_refused(alice_api: APIClient) -> None:
    """52 cards home leave nothing to try: no active game may sit there with no move left."""
    code, line = winning_line()
    state = new_game(alice_api, code=code)
    for move in line:
        state = ok(post(alice_api, f"/api/v1/games/{state['id']}/moves",
                        {"move": move, "version": state["version"]}))  # fmt: skip
    assert state["status"] == "won"
    refused(
        post(alice_api, f"/api/v1/games/{state['id']}/retry", {"version": state["version"]}),
        409,
        "nothing-left-to-play",
    )
    assert not Game.objects.filter(status=Game.Status.ACTIVE, cards_on_foundations=52).exists()
    earlier = ok(post(alice_api, f"/api/v1/games/{state['id']}/retry",
                      {"version": state["version"] - 1}), 201)  # fmt: skip
    assert earlier["status"] == "active" and earlier["legal_moves"]


def test_the_database_refuses_an_active_game_with_every_card_home(alice: User) -> None:
    game = Game.objects.create(owner=alice, code=winning_line()[0], state={})
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(cards_on_foundations=52)
    Game.objects.filter(pk=game.pk).update(cards_on_foundations=52, status=Game.Status.WON)
