"""Games through the API: create, read, move, assists, undo, abandon, log, errors."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from games.engine import DEV_DEAL_KEY, Game, GameCode, Move, public_form
from games.models import Game as GameRow
from games.models import MoveLogEntry, Result
from tests.support.doors import DOORS, open_door
from tests.support.play import new_game, post, winning_line

CODE = "YU1-C-AAAAAAB"


def first_legal(state: dict[str, Any], *, to_foundation: bool = False) -> str:
    for text in state["legal_moves"]:
        if text.endswith(">F") == to_foundation:
            return str(text)
    raise AssertionError("no such legal move")


def illegal_to_column(code: str) -> tuple[str, str]:
    """A move the engine refuses at the deal of `code`, and the code of the refusing rule."""
    game = Game.new(GameCode.parse(code), DEV_DEAL_KEY)
    for column in range(7):
        card = game.column(column).face_up[-1]
        for target in range(7):
            move = Move.parse(f"{card}>{target + 1}")
            if target != column and move not in game.legal_moves:
                try:
                    game.check(move)
                except Exception as error:  # the engine's IllegalMoveError
                    return str(move), str(error.code)  # type: ignore[attr-defined]
    raise AssertionError("every move is legal?")


@pytest.mark.django_db
class TestCreate:
    def test_it_starts_a_random_classic_game(self, alice_api: APIClient) -> None:
        state = new_game(alice_api)
        assert state["rule"] == "C"
        assert state["status"] == "active"
        assert state["version"] == 0
        assert state["code"].startswith("YU1-C-")
        assert [c["face_down"] for c in state["columns"]] == [0, 1, 2, 3, 4, 5, 6]
        assert isinstance(state["legal_moves"], list)  # a rare deal offers no move

    def test_it_starts_a_relaxed_game(self, alice_api: APIClient) -> None:
        assert new_game(alice_api, rule="R")["code"].startswith("YU1-R-")

    def test_it_starts_from_a_code_case_insensitively(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE.lower())
        assert state["code"] == CODE
        expected = public_form(Game.new(GameCode.parse(CODE), DEV_DEAL_KEY))
        assert state["columns"] == expected["columns"]

    def test_it_rejects_a_bad_code_with_its_reason(self, alice_api: APIClient) -> None:
        response = post(alice_api, "/api/v1/games", {"code": "YU1-X-AAAAAAB"})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "code-rule"

    def test_it_rejects_a_rule_that_contradicts_the_code(self, alice_api: APIClient) -> None:
        response = post(alice_api, "/api/v1/games", {"code": CODE, "rule": "R"})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "rule-mismatch"

    def test_it_rejects_an_unknown_rule(self, alice_api: APIClient) -> None:
        response = post(alice_api, "/api/v1/games", {"rule": "Z"})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid-request"
        assert "rule" in response.json()["error"]["fields"]


@pytest.mark.django_db
class TestPlay:
    def test_a_legal_move_bumps_the_version_and_logs_it(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        move = first_legal(state)
        response = post(
            alice_api, f"/api/v1/games/{state['id']}/moves", {"move": move, "version": 0}
        )
        assert response.status_code == 200, response.content
        after = response.json()
        assert after["version"] == 1
        assert after["move_count"] == 1
        assert after["first_move_at"] is not None
        log = alice_api.get(f"/api/v1/games/{state['id']}/log").json()
        assert [(e["seq"], e["move"], e["kind"]) for e in log] == [(1, move, "move")]

    def test_an_illegal_move_is_422_with_the_rule(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        move, code = illegal_to_column(CODE)
        response = post(
            alice_api, f"/api/v1/games/{state['id']}/moves", {"move": move, "version": 0}
        )
        assert response.status_code == 422
        error = response.json()["error"]
        assert error["code"] == code
        assert error["rule"] and error["message"]
        assert GameRow.objects.get(pk=state["id"]).version == 0

    def test_text_that_is_not_a_move_is_400(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        response = post(
            alice_api, f"/api/v1/games/{state['id']}/moves", {"move": "10D-3", "version": 0}
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid-move"

    @pytest.mark.parametrize(
        "body",
        [{}, {"move": "10D>3"}, {"move": "10D>3", "version": -1}, {"move": 5, "version": "x"}],
    )
    def test_missing_or_wrong_fields_are_400(
        self, alice_api: APIClient, body: dict[str, Any]
    ) -> None:
        state = new_game(alice_api, code=CODE)
        response = post(alice_api, f"/api/v1/games/{state['id']}/moves", body)
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid-request"

    def test_malformed_json_is_400(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        response = alice_api.post(
            f"/api/v1/games/{state['id']}/moves", "{not json", content_type="application/json"
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "malformed-json"

    @pytest.mark.parametrize("door", DOORS)
    @pytest.mark.django_db(transaction=True)
    def test_a_stale_version_is_409_with_the_current_state(
        self, door: str, alice: User, alice_api: APIClient
    ) -> None:
        state = new_game(alice_api, code=CODE)
        with open_door(door, alice) as writer:
            assert (
                writer.write(state["id"], "move", {"move": first_legal(state), "version": 0})[0]
                == 200
            )
            later = alice_api.get(f"/api/v1/games/{state['id']}").json()
            status, error = writer.write(
                state["id"], "move", {"move": first_legal(later), "version": 5}
            )
        assert status == 409
        assert error["code"] == "stale-version"
        assert error["state"]["version"] == 1

    @pytest.mark.parametrize("door", DOORS)
    @pytest.mark.django_db(transaction=True)
    def test_a_retried_move_is_applied_once(
        self, door: str, alice: User, alice_api: APIClient
    ) -> None:
        state = new_game(alice_api, code=CODE)
        body = {"move": first_legal(state), "version": 0}
        with open_door(door, alice) as writer:
            first = writer.write(state["id"], "move", body)
            again = writer.write(state["id"], "move", body)
        assert first[0] == again[0] == 200
        assert first[1]["columns"] == again[1]["columns"]
        assert again[1]["version"] == 1
        assert MoveLogEntry.objects.filter(game_id=state["id"]).count() == 1

    @pytest.mark.parametrize("door", DOORS)
    @pytest.mark.django_db(transaction=True)
    def test_a_different_move_on_the_old_version_is_stale(
        self, door: str, alice: User, alice_api: APIClient
    ) -> None:
        state = new_game(alice_api, code=CODE)
        moves = list(state["legal_moves"])
        with open_door(door, alice) as writer:
            assert writer.write(state["id"], "move", {"move": moves[0], "version": 0})[0] == 200
            assert writer.write(state["id"], "move", {"move": moves[1], "version": 0})[0] == 409

    def test_undo_restores_the_board_but_not_the_move_counter(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        gid = state["id"]
        post(alice_api, f"/api/v1/games/{gid}/moves", {"move": first_legal(state), "version": 0})
        response = post(alice_api, f"/api/v1/games/{gid}/undo", {"version": 1})
        assert response.status_code == 200
        after = response.json()
        assert after["columns"] == state["columns"]
        assert after["move_count"] == 1
        assert after["version"] == 2
        kinds = [e["kind"] for e in alice_api.get(f"/api/v1/games/{gid}/log").json()]
        assert kinds == ["move", "undo"]

    def test_undo_with_nothing_to_undo_is_422(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        response = post(alice_api, f"/api/v1/games/{state['id']}/undo", {"version": 0})
        assert response.status_code == 422
        assert response.json()["error"]["code"] == "nothing-to-undo"

    def test_abandon_ends_the_game_and_records_a_result(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        gid = state["id"]
        response = post(alice_api, f"/api/v1/games/{gid}/abandon", {"version": 0})
        assert response.status_code == 200
        assert response.json()["status"] == "abandoned"
        assert response.json()["legal_moves"] == []
        assert Result.objects.get(game_id=gid).won is False
        again = post(alice_api, f"/api/v1/games/{gid}/abandon", {"version": 0})
        assert again.status_code == 200
        move = post(alice_api, f"/api/v1/games/{gid}/moves", {"move": "AS>F", "version": 1})
        assert move.status_code == 409
        assert move.json()["error"]["code"] == "game-finished"


@pytest.mark.django_db
class TestAssists:
    def test_tap_sends_the_card_to_its_foundation(self, alice_api: APIClient) -> None:
        code, line = winning_line()
        state = new_game(alice_api, code=code)
        gid = state["id"]
        for version, move in enumerate(line):
            if move.endswith(">F"):
                card = move.split(">")[0]
                response = post(
                    alice_api, f"/api/v1/games/{gid}/tap", {"card": card, "version": version}
                )
                assert response.status_code == 200, response.content
                log = alice_api.get(f"/api/v1/games/{gid}/log").json()
                assert (log[-1]["move"], log[-1]["intent"]) == (move, "tap")
                return
            post(alice_api, f"/api/v1/games/{gid}/moves", {"move": move, "version": version})
        raise AssertionError("the winning line has no foundation move")

    def test_tap_on_a_card_that_cannot_go_up_is_refused(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        buried = state["columns"][6]["face_up"][0]
        response = post(
            alice_api, f"/api/v1/games/{state['id']}/tap", {"card": buried, "version": 0}
        )
        assert response.status_code == 422
        assert response.json()["error"]["code"] in {"not-top-card", "foundation-order"}

    def test_double_click_moves_the_group_somewhere_legal(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        movable = {m.split(">")[0] for m in state["legal_moves"] if not m.endswith(">F")}
        card = sorted(movable)[0]
        response = post(
            alice_api, f"/api/v1/games/{state['id']}/double-click", {"card": card, "version": 0}
        )
        assert response.status_code == 200, response.content
        log = alice_api.get(f"/api/v1/games/{state['id']}/log").json()
        assert log[-1]["intent"] == "double-click"
        assert log[-1]["move"] in state["legal_moves"]

    def test_a_card_that_is_not_a_card_is_400(self, alice_api: APIClient) -> None:
        state = new_game(alice_api, code=CODE)
        response = post(alice_api, f"/api/v1/games/{state['id']}/tap", {"card": "1Z", "version": 0})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid-card"


@pytest.mark.django_db
def test_a_whole_game_is_won_through_the_api(alice_api: APIClient) -> None:
    code, line = winning_line()
    state = new_game(alice_api, code=code)
    gid = state["id"]
    for version, move in enumerate(line):
        response = post(alice_api, f"/api/v1/games/{gid}/moves", {"move": move, "version": version})
        assert response.status_code == 200, (move, response.content)
        state = response.json()
    assert state["status"] == "won"
    assert state["score"] == 625
    assert state["cards_on_foundations"] == 52
    assert state["legal_moves"] == []
    assert state["finished_at"] is not None
    result = Result.objects.get(game_id=gid)
    assert (result.won, result.moves, result.score) == (True, len(line), 625)
    refused = post(alice_api, f"/api/v1/games/{gid}/undo", {"version": len(line)})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "game-won"
    call_command("verify_games")


@pytest.mark.django_db
class TestListing:
    def test_my_games_newest_first_filtered_and_paginated(
        self, alice_api: APIClient, bob_api: APIClient
    ) -> None:
        ids = [new_game(alice_api)["id"] for _ in range(3)]
        new_game(bob_api)
        post(alice_api, f"/api/v1/games/{ids[0]}/abandon", {"version": 0})
        page = alice_api.get("/api/v1/games?page_size=2").json()
        assert page["count"] == 3
        assert [g["id"] for g in page["results"]] == [ids[2], ids[1]]
        assert page["next"] is not None
        active = alice_api.get("/api/v1/games?status=active").json()
        assert sorted(g["id"] for g in active["results"]) == sorted(ids[1:])
        assert alice_api.get("/api/v1/games?status=lost").status_code == 400

    def test_an_unknown_game_is_404(self, alice_api: APIClient) -> None:
        response = alice_api.get("/api/v1/games/999999")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "game-not-found"

    def test_an_unknown_api_url_is_a_json_404(self, alice_api: APIClient) -> None:
        response = alice_api.get("/api/v1/nothing-here")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not-found"
