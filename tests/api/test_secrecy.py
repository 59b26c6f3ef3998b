"""No response ever names a face-down card, and the schema's examples hold no private state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.engine import DEV_DEAL_KEY, GameCode
from games.engine import Game as EngineGame
from tests.support.doors import DOORS, open_door
from tests.support.play import new_game, token_client
from tests.support.secrecy import face_down_cards, strings

CODE = "YU1-C-AAAAAAB"


def assert_no_hidden_card(body: Any, hidden: set[str]) -> None:
    leaked = hidden.intersection(strings(body))
    assert not leaked, f"face-down cards {leaked} appear in {json.dumps(body)[:300]}"


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.django_db(transaction=True)
def test_every_endpoint_keeps_face_down_cards_secret(door: str, alice: User) -> None:
    owner = token_client(alice)
    anonymous = APIClient()
    game = new_game(owner, code=CODE)
    gid = game["id"]
    bodies: list[Any] = [game]
    with open_door(door, alice) as writer:
        for version in range(6):
            state = owner.get(f"/api/v1/games/{gid}").json()
            plays = [m for m in state["legal_moves"]]
            status, body = writer.write(gid, "move", {"move": plays[0], "version": version})
            assert status == 200
            bodies.append(body)
        bodies.append(writer.write(gid, "move", {"move": "KS>1", "version": 0})[1])
        bodies.append(writer.write(gid, "tap", {"card": "2C", "version": 6})[1])
    for client in (owner, anonymous):
        bodies.append(client.get(f"/api/v1/games/{gid}").json())
        bodies.append(client.get(f"/api/v1/games/{gid}/log").json())
    bodies.append(owner.get("/api/v1/games").json())
    hidden = face_down_cards(gid)
    assert len(hidden) >= 15
    for body in bodies:
        assert_no_hidden_card(body, hidden)


@pytest.mark.django_db
def test_schema_examples_hold_no_face_down_card() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    examples = [
        example["value"]
        for path in schema["paths"].values()
        for operation in path.values()
        for response in operation.get("responses", {}).values()
        for media in response.get("content", {}).values()
        for example in media.get("examples", {}).values()
    ]
    states = [example for example in examples if "columns" in example]
    assert states, "the schema should show a whole game state as an example"
    for state in states:
        engine = EngineGame.new(GameCode.parse(state["code"]), DEV_DEAL_KEY)
        hidden = {str(card) for column in engine.hidden_cards() for card in column}
        assert [column["face_down"] for column in state["columns"]] == [0, 1, 2, 3, 4, 5, 6]
        for example in examples:
            assert_no_hidden_card(example, hidden)
