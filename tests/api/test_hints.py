"""Solver-backed assists: hints and winnability, and the `solve` command."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from games import hints
from games.engine import CARDS, DEV_DEAL_KEY, Game, GameCode, Move, private_form
from games.engine.solver import SolveResult, solve
from games.models import Game as GameRow
from tests.support.play import new_game, post, token_client, winning_line
from tests.support.tasks import run_next_task, run_queued_tasks


def asked(client: APIClient, game_id: int, path: str) -> dict[str, Any]:
    """Ask; a 202 `pending` is answered by running the queued solve, then asking again (200)."""
    response = post(client, f"/api/v1/games/{game_id}/{path}", {})
    if response.status_code == 202:
        pending = response.json()
        assert (pending["status"], pending["push"]) == ("pending", path)
        assert pending["feed"] == f"/ws/v1/games/{game_id}/"
        run_queued_tasks("assists")
        response = post(client, f"/api/v1/games/{game_id}/{path}", {})
    assert response.status_code == 200, response.content
    return dict(response.json())


@pytest.mark.django_db
def test_a_hint_is_a_legal_move_of_a_winning_line_and_marks_the_game(alice: User) -> None:
    client = token_client(alice)
    code, _ = winning_line()
    state = new_game(client, code=code)
    first = post(client, f"/api/v1/games/{state['id']}/hint", {})
    assert first.status_code == 202  # nothing kept yet: the solve is queued
    hint = asked(client, state["id"], "hint")
    assert hint["status"] == "winnable"
    assert hint["version"] == 0
    assert hint["move"] in state["legal_moves"]
    assert client.get(f"/api/v1/games/{state['id']}").json()["assisted"] is True
    played = post(
        client, f"/api/v1/games/{state['id']}/moves", {"move": hint["move"], "version": 0}
    )
    assert played.status_code == 200
    again = post(client, f"/api/v1/games/{state['id']}/winnability", {})
    assert again.status_code == 200  # kept to the line: answered at once
    assert (again.json()["status"], again.json()["version"]) == ("winnable", 1)
    assert "move" not in again.json()
    assert asked(client, state["id"], "hint")["version"] == 1


@pytest.mark.django_db
def test_a_dead_position_is_no_longer_winnable(alice: User) -> None:
    stuck = Game.from_layout([(" ".join(str(c) for c in CARDS if str(c) != "5S"), "5S")])
    row = GameRow.objects.create(owner=alice, code="YU1-C-AAAAAAB", state=private_form(stuck))
    answer = asked(token_client(alice), row.pk, "hint")
    assert (answer["status"], answer["move"]) == ("no-longer-winnable", None)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["hint", "winnability"])
def test_only_the_owner_may_ask_the_solver(alice: User, bob: User, path: str) -> None:
    game_id = new_game(token_client(alice))["id"]
    assert post(APIClient(), f"/api/v1/games/{game_id}/{path}", {}).status_code == 401
    refused = post(token_client(bob), f"/api/v1/games/{game_id}/{path}", {})
    assert refused.status_code == 403
    assert GameRow.objects.get(pk=game_id).assisted is False


@pytest.mark.django_db
def test_a_finished_game_gets_no_hint(alice: User) -> None:
    client = token_client(alice)
    game_id = new_game(client)["id"]
    post(client, f"/api/v1/games/{game_id}/abandon", {"version": 0})
    response = post(client, f"/api/v1/games/{game_id}/hint", {})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game-finished"


def test_solve_command_prints_verdict_and_a_winning_line() -> None:
    code, _ = winning_line()
    out = StringIO()
    call_command("solve", code, "--seconds", "10", stdout=out)
    text = out.getvalue()
    assert "verdict: winnable" in text
    line = text.split("moves): ")[1].split()
    game = Game.new(GameCode.parse(code), DEV_DEAL_KEY)
    for move in line:
        game.play(Move.parse(move))
    assert game.won


def test_solve_command_rejects_a_bad_code() -> None:
    with pytest.raises(CommandError, match="code-rule"):
        call_command("solve", "YU1-X-AAAAAAB")


#: The issue's hard deal: after A♦ home and Q♦ onto K♠ its hint used to be "No hint: the
#: solver ran out of time", and asking again gave the same at once.
HARD_DEAL, HARD_OPENING = "YU1-C-ROMPSVF", ["AD>F", "QD>1"]


def hard_position(client: APIClient) -> dict[str, Any]:
    state = new_game(client, code=HARD_DEAL)
    for move in HARD_OPENING:
        assert move in state["legal_moves"]
        body = {"move": move, "version": state["version"]}
        state = post(client, f"/api/v1/games/{state['id']}/moves", body).json()
    return state


@pytest.mark.django_db
def test_a_hint_on_the_hard_deal_answers_a_move_within_its_budget(alice: User) -> None:
    client = token_client(alice)
    state = hard_position(client)
    hint = asked(client, state["id"], "hint")
    assert hint["version"] == 2
    assert hint["move"] in state["legal_moves"]
    assert isinstance(hint["proven"], bool)
    assert hint["proven"] == (hint["status"] == "winnable")
    budget = float(settings.SOLVER_ASSIST_SECONDS) * (1 + hints.PROBE_SHARE)
    assert hint["seconds"] <= budget + 1.0  # docs/api.md: the worker's time for a hint


@pytest.mark.django_db
def test_an_unproven_hint_is_a_best_guess_and_a_longer_solve_improves_it(
    alice: User, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SOLVER_ASSIST_SECONDS = 0.01  # far too short to decide the hard position
    monkeypatch.setattr(hints, "MOVE_PROBE_NODES", 1)  # and no move decided one deeper
    monkeypatch.setattr(hints, "DEEPER", 6000)  # the longer solve: a minute at most
    client = token_client(alice)
    state = hard_position(client)
    assert post(client, f"/api/v1/games/{state['id']}/hint", {}).status_code == 202
    assert run_next_task("assists")
    guess = post(client, f"/api/v1/games/{state['id']}/hint", {}).json()
    assert (guess["status"], guess["proven"], guess["reason"]) == ("unknown", False, "time-budget")
    assert guess["move"] in state["legal_moves"]
    winnability = post(client, f"/api/v1/games/{state['id']}/winnability", {}).json()
    assert (winnability["status"], winnability["proven"]) == ("unknown", False)
    assert run_next_task("assists")  # the longer solve, queued by the guess
    proven = post(client, f"/api/v1/games/{state['id']}/hint", {}).json()
    assert (proven["status"], proven["proven"]) == ("winnable", True)
    assert proven["move"] in state["legal_moves"]
    assert not run_next_task("assists")  # a proof queues nothing more


def test_a_position_whose_every_move_is_lost_is_proven_lost_one_move_deeper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # K♠ can wander between empty columns, but 5♠ covers every other card: each move's
    # position is proven lost, so when the position's own solve runs out of time (forced
    # here) the answer is still a proven "lost", not a guess.
    buried = " ".join(str(c) for c in CARDS if str(c) not in {"5S", "KS"})
    engine = Game.from_layout([(buried, "5S"), ("", "KS")])
    assert engine.legal_moves

    def root_runs_out(game: Game, **budgets: Any) -> SolveResult:
        if "node_budget" not in budgets:
            return SolveResult("unknown", [], "time-budget", 0, 0.0)
        return solve(game, **budgets)

    monkeypatch.setattr(hints, "solve", root_runs_out)
    found = hints.search(engine, 1.0)
    assert (found.verdict, found.proven, found.line) == ("unwinnable", True, [])
