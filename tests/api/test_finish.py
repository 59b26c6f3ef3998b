"""Finish through the API: refused while a card is face down, then the server plays the rest
home by the engine's rules, each move a log entry, scored as if played by hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.engine import DEV_DEAL_KEY, Game, GameCode, Move, private_form
from games.models import Game as GameRow
from games.models import MoveLogEntry
from tests.support.play import new_game, post, winning_line

CODE, LINE = winning_line()

pytestmark = pytest.mark.django_db


def all_face_up_after() -> int:
    """How many moves of the winning line turn the last face-down card up."""
    game = Game.new(GameCode.parse(CODE), DEV_DEAL_KEY)
    for played, move in enumerate(LINE, start=1):
        game.play(Move.parse(move))
        if all(column.face_down == 0 for column in game.columns):
            return played
    raise AssertionError("the line never turns every card up")


def played(client: APIClient, moves: list[str]) -> dict[str, Any]:
    """A new game of CODE with `moves` played one by one through the API."""
    state = new_game(client, code=CODE)
    for move in moves:
        answer = post(
            client,
            f"/api/v1/games/{state['id']}/moves",
            {"move": move, "version": state["version"]},
        )
        assert answer.status_code == 200, answer.content
        state = answer.json()
    return state


def finish(client: APIClient, state: dict[str, Any]) -> Any:
    return post(client, f"/api/v1/games/{state['id']}/finish", {"version": state["version"]})


def test_finish_is_refused_while_a_card_is_face_down(alice_api: APIClient) -> None:
    state = played(alice_api, LINE[: all_face_up_after() - 1])
    assert state["can_finish"] is False
    refused = finish(alice_api, state)
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "cards-face-down"
    assert alice_api.get(f"/api/v1/games/{state['id']}").json()["version"] == state["version"]


def test_finish_plays_the_rest_home_scored_as_by_hand(
    alice_api: APIClient, bob_api: APIClient
) -> None:
    state = played(alice_api, LINE[: all_face_up_after()])
    assert state["can_finish"] is True
    answer = finish(alice_api, state)
    assert answer.status_code == 200, answer.content
    done, steps = answer.json()["state"], answer.json()["steps"]
    assert done["status"] == "won" and done["can_finish"] is False
    assert done["cards_on_foundations"] == 52

    log = alice_api.get(f"/api/v1/games/{state['id']}/log").json()
    finished = [entry for entry in log if entry["intent"] == "finish"]
    assert len(finished) == len(steps) == done["version"] - state["version"]
    assert [step["seq"] for step in steps] == [entry["seq"] for entry in finished]
    assert [step["move"] for step in steps] == [entry["move"] for entry in finished]
    assert steps[-1]["score"] == done["score"] and steps[-1]["move_count"] == done["move_count"]
    assert all(
        step["columns"] and not any(c["face_down"] for c in step["columns"]) for step in steps
    )

    # The same moves played one by one by another player score the same.
    by_hand = played(bob_api, [entry["move"] for entry in log])
    assert by_hand["status"] == "won"
    assert (by_hand["score"], by_hand["move_count"]) == (done["score"], done["move_count"])
    assert done["score"] == 625  # no take-back: 52 * 10 + 21 * 5


def test_a_retried_finish_is_answered_without_playing_twice(alice_api: APIClient) -> None:
    state = played(alice_api, LINE[: all_face_up_after()])
    first = finish(alice_api, state).json()
    again = finish(alice_api, state)
    assert again.status_code == 200
    assert again.json() == first
    assert MoveLogEntry.objects.filter(game_id=state["id"]).count() == first["state"]["version"]


def test_a_won_game_is_not_finished_again(alice_api: APIClient) -> None:
    state = played(alice_api, LINE)
    refused = finish(alice_api, state)
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "game-finished")


def test_a_blocked_table_is_refused_finish_blocked(alice: User, alice_api: APIClient) -> None:
    """Every card face up and no way home (the Aces under Kings, no column free)."""
    blocked = Game.from_layout(
        [("", "AS KC"), ("", "QC 2S"), ("", "3S 4S"), ("", "5S 6S"), ("", "7S 8S"),
         ("", "9S 10S"), ("", "JS QS KS")],
        [0, 13, 13, 11],
        code=GameCode.parse(CODE),
    )  # fmt: skip
    row = GameRow.objects.create(owner=alice, code=CODE, state=private_form(blocked))
    state = alice_api.get(f"/api/v1/games/{row.pk}").json()
    assert state["can_finish"] is True
    refused = finish(alice_api, state)
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "finish-blocked")


def test_only_the_owner_finishes(alice_api: APIClient, bob_api: APIClient) -> None:
    state = played(alice_api, LINE[: all_face_up_after()])
    refused = finish(bob_api, state)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not-your-game")
