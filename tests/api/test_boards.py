"""The analysis board through the API: opening from a game step, a practice game or a solved
puzzle, moves tried without a game, every move judged on the task worker, and the fair-play
gate at opening and at every later read."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from games import days, deals, services
from games.arenas.models import Arena
from games.engine import GameCode
from games.engine.solver import solve
from games.models import DailyDeal, Game
from tests.support.analysis import lost_game
from tests.support.play import winning_line
from tests.support.puzzles import hidden_cards, seeded
from tests.support.secrecy import strings
from tests.support.tasks import run_queued_tasks

pytestmark = pytest.mark.django_db

#: Enough solver positions for every verdict the tests below rely on.
NODES = 200_000


@pytest.fixture(autouse=True)
def enough_nodes(settings: Any) -> None:
    settings.BOARD_MOVE_NODES = NODES


def opened(client: APIClient, game: Game, version: int) -> dict[str, Any]:
    response = client.post(f"/api/v1/games/{game.pk}/board", {"version": version}, format="json")
    assert response.status_code == 201, response.content
    return dict(response.json())


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code


def judged(client: APIClient, key: str) -> dict[str, Any]:
    """The position's verdicts once the task worker has judged every move."""
    first = client.get(f"/api/v1/positions/{key}/moves").json()
    assert first["status"] == "pending"
    run_queued_tasks("assists")
    answer = client.get(f"/api/v1/positions/{key}/moves").json()
    assert answer["status"] == "done"
    return dict(answer)


def test_a_finished_games_step_opens_a_board_that_plays_and_undoes_without_a_game(
    alice: User, alice_api: APIClient
) -> None:
    game = lost_game(alice)
    games_before = Game.objects.count()
    board = opened(alice_api, game, 3)
    engine = deals.replayed(game, list(game.log.order_by("seq").values_list("text", flat=True))[:3])
    assert board["legal_moves"] == [str(move) for move in engine.legal_moves]
    assert board["code"] == game.code
    hidden = {str(card) for column in engine.hidden_cards() for card in column}
    assert hidden and not hidden & set(strings(board))

    move = board["legal_moves"][0]
    child = alice_api.post(f"/api/v1/positions/{board['key']}/moves", {"move": move}, format="json")
    assert child.status_code == 201, child.content
    engine.play(next(m for m in engine.legal_moves if str(m) == move))
    assert child.json()["legal_moves"] == [str(m) for m in engine.legal_moves]
    assert child.json()["key"] != board["key"]
    # Undo is going back to the parent's key: the same position, the same key, every time.
    assert opened(alice_api, game, 3)["key"] == board["key"]
    again = alice_api.get(f"/api/v1/positions/{board['key']}").json()
    assert again == board
    assert Game.objects.count() == games_before


def test_every_move_is_judged_and_a_winning_line_given(alice: User, alice_api: APIClient) -> None:
    code, _ = winning_line()
    game = services.start_game(alice, code=code)
    game = services.resign(alice, game.pk, version=game.version).game
    key = opened(alice_api, game, 0)["key"]
    answer = judged(alice_api, key)
    engine = deals.new_game(GameCode.parse(code))
    assert [entry["move"] for entry in answer["moves"]] == [str(m) for m in engine.legal_moves]
    assert all(entry["judged"] for entry in answer["moves"])
    for entry in answer["moves"]:  # each verdict is the solver's on the move's position
        child = engine.copy()
        child.play(next(m for m in engine.legal_moves if str(m) == entry["move"]))
        expected = {"winnable": "keeps-win", "unwinnable": "loses-win", "unknown": "unknown"}
        assert entry["verdict"] in {expected[solve(child, node_budget=NODES).verdict], "keeps-win"}
    assert answer["line"], "the deal is won by a known line: the board finds one"
    board = engine.copy()
    for text in answer["line"]:
        board.play(next(m for m in board.legal_moves if str(m) == text))
    assert board.won
    verdict_of_first = {e["move"]: e["verdict"] for e in answer["moves"]}[answer["line"][0]]
    assert verdict_of_first == "keeps-win"


def test_a_lost_position_loses_with_every_move_and_a_second_viewer_costs_nothing(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    game = lost_game(alice)
    key = opened(alice_api, game, game.log.count())["key"]
    answer = judged(alice_api, key)
    assert answer["moves"] and {e["verdict"] for e in answer["moves"]} == {"loses-win"}
    assert answer["line"] == []
    tasks = DBTaskResult.objects.count()
    assert opened(bob_api, game, game.log.count())["key"] == key
    assert bob_api.get(f"/api/v1/positions/{key}/moves").json() == answer
    assert DBTaskResult.objects.count() == tasks  # nothing queued, nothing solved again


def test_a_game_still_counting_opens_no_board_but_a_practice_game_does(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    code, _ = winning_line()
    game = services.start_game(alice, code=code)
    response = alice_api.post(f"/api/v1/games/{game.pk}/board", {"version": 0}, format="json")
    refused(response, 409, "game-not-finished")
    refused(
        bob_api.post(f"/api/v1/games/{game.pk}/board", {"version": 0}, format="json"),
        403,
        "not-your-game",
    )
    finished = services.resign(alice, game.pk, version=game.version).game
    practice = services.retry_from(alice, finished.pk, 0)
    assert opened(alice_api, practice, 0)["code"] == code
    refused(
        alice_api.post(f"/api/v1/games/{game.pk}/board", {"version": 99}, format="json"),
        400,
        "no-such-version",
    )


def test_no_board_on_todays_daily_deal_nor_on_a_raced_one_even_from_a_key_opened_before(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    game = lost_game(alice)
    key = opened(alice_api, game, 0)["key"]
    number = GameCode.parse(game.code).number
    deal = DailyDeal.objects.create(
        date=days.today(), number=number, candidate=0, verdict="winnable"
    )
    for client in (alice_api, bob_api):  # every viewer: a board shared would show the deal
        refused(client.get(f"/api/v1/positions/{key}"), 409, "board-deal-in-play")
        refused(client.get(f"/api/v1/positions/{key}/moves"), 409, "board-deal-in-play")
        refused(
            client.post(f"/api/v1/positions/{key}/moves", {"move": "KS>1"}, format="json"),
            409,
            "board-deal-in-play",
        )
    response = alice_api.post(f"/api/v1/games/{game.pk}/board", {"version": 0}, format="json")
    refused(response, 409, "board-deal-in-play")
    assert game.code not in json.dumps(response.json())
    deal.delete()
    assert alice_api.get(f"/api/v1/positions/{key}").status_code == 200
    Game.objects.filter(pk=services.start_game(alice, code=game.code).pk).update(race_hidden=True)
    refused(bob_api.get(f"/api/v1/positions/{key}"), 409, "board-deal-in-play")


def test_a_puzzles_board_opens_once_solved_and_only_to_who_solved_it(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    puzzle = seeded(1)[0]
    refused(alice_api.post(f"/api/v1/puzzles/{puzzle.pk}/board"), 403, "puzzle-not-solved")
    solved = alice_api.post(
        f"/api/v1/puzzles/{puzzle.pk}/attempts", {"moves": puzzle.solution}, format="json"
    )
    assert solved.json()["correct"] is True, solved.content
    response = alice_api.post(f"/api/v1/puzzles/{puzzle.pk}/board")
    assert response.status_code == 201, response.content
    board = response.json()
    assert not hidden_cards(puzzle) & set(strings(board))
    refused(bob_api.get(f"/api/v1/positions/{board['key']}"), 403, "puzzle-not-solved")
    move = board["legal_moves"][0]
    child = alice_api.post(f"/api/v1/positions/{board['key']}/moves", {"move": move}, format="json")
    refused(bob_api.get(f"/api/v1/positions/{child.json()['key']}"), 403, "puzzle-not-solved")


def test_unknown_keys_and_illegal_moves_are_refused(alice: User, alice_api: APIClient) -> None:
    refused(alice_api.get("/api/v1/positions/0123456789abcdef01234567"), 404, "position-not-found")
    game = lost_game(alice)
    key = opened(alice_api, game, 0)["key"]
    response = alice_api.post(f"/api/v1/positions/{key}/moves", {"move": "KS>F"}, format="json")
    assert response.status_code == 422, response.content
    deal = deals.new_game(GameCode.parse(game.code))
    hidden = {str(card) for column in deal.hidden_cards() for card in column}
    assert hidden.isdisjoint(strings(alice_api.get(f"/api/v1/positions/{key}").json()))


def test_a_shared_key_reads_signed_out_but_moves_need_a_player(
    alice: User, alice_api: APIClient
) -> None:
    game = lost_game(alice)
    board = opened(alice_api, game, 0)
    anyone = APIClient()
    assert anyone.get(f"/api/v1/positions/{board['key']}").json() == board
    assert anyone.get(f"/api/v1/positions/{board['key']}/moves").status_code == 200
    move = {"move": board["legal_moves"][0]}
    refused(
        anyone.post(f"/api/v1/positions/{board['key']}/moves", move, format="json"),
        401,
        "not-authenticated",
    )


def test_a_judging_whose_worker_went_silent_is_queued_again(
    alice: User, alice_api: APIClient, settings: Any
) -> None:
    game = lost_game(alice)
    key = opened(alice_api, game, 0)["key"]
    assert alice_api.get(f"/api/v1/positions/{key}/moves").json()["status"] == "pending"
    DBTaskResult.objects.all().delete()  # the worker that took it was killed
    assert alice_api.get(f"/api/v1/positions/{key}/moves").json()["status"] == "pending"
    assert DBTaskResult.objects.count() == 0  # still within its time: left alone
    settings.ANALYSIS_STALE_SECONDS = 0
    assert alice_api.get(f"/api/v1/positions/{key}/moves").json()["status"] == "pending"
    assert run_queued_tasks("assists") == 1
    assert alice_api.get(f"/api/v1/positions/{key}/moves").json()["status"] == "done"


def test_no_board_on_a_deal_of_an_arena_not_yet_over_upcoming_included(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    game = lost_game(alice)
    key = opened(alice_api, game, 0)["key"]
    later = timezone.now() + timedelta(hours=1)
    arena = Arena.objects.create(
        kind=Arena.Kind.PLAYER,
        rule="C",
        starts_at=later,
        ends_at=later + timedelta(minutes=30),
        token="an-upcoming-arena",
        deals=[game.code],
    )
    for client in (alice_api, bob_api):
        refused(client.get(f"/api/v1/positions/{key}"), 409, "board-deal-in-play")
    Arena.objects.filter(pk=arena.pk).update(
        starts_at=timezone.now() - timedelta(hours=1), ends_at=timezone.now() - timedelta(minutes=1)
    )
    assert bob_api.get(f"/api/v1/positions/{key}").status_code == 200
