"""Mining: a lost game's analysis leads, through the task queue, to a puzzle at its turning point
in its owner's deck and nobody else's; the server's self-play deals fill the public pool,
at startup and on the workers; mining twice adds nothing."""

from __future__ import annotations

import random
import threading
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from games import deals, services
from games.analysis.management.commands import worker
from games.engine import ALASKA, GameCode, Move, read_private
from games.models import Game as StoredGame
from games.puzzles import mining, ratings, stock
from games.puzzles.models import Puzzle, PuzzleCard
from games.puzzles.proof import PUBLIC_PLAUSIBLE, plausible_moves, prove
from tests.support.play import token_client
from tests.support.tasks import run_queued_tasks

pytestmark = pytest.mark.django_db

#: A Classic deal (development deal key) whose fourth position has one winning move: three
#: Kings can go to the empty column 2, and only K♥ keeps the win.
TURNING_CODE = "YU1-C-AIYUJSQ"
TO_THE_PUZZLE = ["AD>F", "AS>3", "JD>6"]
ANSWER = "KH>2"
LOSING = "KS>2"


@pytest.fixture(autouse=True)
def small_budgets(settings: Any) -> None:
    settings.ANALYSIS_POSITION_NODES = 20_000
    settings.ANALYSIS_CHUNK_POSITIONS = 50
    settings.PUZZLE_SOLVER_NODES = 20_000


def lost_at_the_puzzle(player: User) -> StoredGame:
    """A game that reached the puzzle, played a losing King there, and was resigned."""
    game = services.start_game(player, code=TURNING_CODE)
    for move in [*TO_THE_PUZZLE, LOSING]:
        game = services.play_move(player, game.pk, move=move, version=game.version).game
    return services.resign(player, game.pk, version=game.version).game


def test_a_lost_games_turning_point_becomes_a_puzzle_in_its_owners_deck(
    alice: User, bob: User
) -> None:
    game = lost_at_the_puzzle(alice)
    run_queued_tasks()
    puzzle = Puzzle.objects.get(game=game, line_step=0)
    assert (puzzle.version, puzzle.solution, puzzle.source) == (3, [ANSWER], "game")
    assert puzzle.legal_moves == 3 and puzzle.code == TURNING_CODE
    card = PuzzleCard.objects.get(player=alice, puzzle=puzzle)
    assert (card.own, card.box) == (True, 1)
    served = token_client(alice).get("/api/v1/puzzles/next").json()
    assert (served["puzzle"]["id"], served["reason"], served["puzzle"]["yours"]) == (
        puzzle.pk,
        "due",
        True,
    )
    assert LOSING in served["puzzle"]["board"]["legal_moves"]
    assert not PuzzleCard.objects.filter(player=bob).exists()


def test_a_games_puzzle_whose_answer_its_public_analysis_tells_is_its_owners_alone(
    alice: User, bob: User
) -> None:
    """Issue 35: anybody may read an ordinary game's analysis, whose turning point's line is
    the answer of every puzzle mined from it; such a puzzle is served to its owner only."""
    game = lost_at_the_puzzle(alice)
    run_queued_tasks()
    puzzle = Puzzle.objects.get(game=game, line_step=0)
    analysis = APIClient().get(f"/api/v1/games/{game.pk}/analysis").json()
    assert analysis["turning_point"]["line"][: len(puzzle.solution)] == puzzle.solution
    assert token_client(alice).get(f"/api/v1/puzzles/{puzzle.pk}").status_code == 200
    for client in (token_client(bob), APIClient()):
        response = client.get(f"/api/v1/puzzles/{puzzle.pk}")
        assert response.json()["error"]["code"] == "puzzle-not-found"
        daily = client.get("/api/v1/puzzles/daily")
        assert daily.json()["error"]["code"] == "no-daily-puzzle"
    refused = token_client(bob).post(
        f"/api/v1/puzzles/{puzzle.pk}/attempts", {"moves": puzzle.solution}, format="json"
    )
    assert refused.status_code == 404
    assert token_client(bob).get("/api/v1/puzzles/next").json()["puzzle"] is None
    # Its owner's answer is practice: the analysis told it to them too.
    mine = token_client(alice).post(
        f"/api/v1/puzzles/{puzzle.pk}/attempts", {"moves": puzzle.solution}, format="json"
    )
    assert (mine.json()["outcome"], mine.json()["rated"]) == ("solved", False)
    assert Puzzle.objects.get(pk=puzzle.pk).rating == puzzle.rating


def test_mining_a_game_again_adds_nothing(alice: User) -> None:
    game = lost_at_the_puzzle(alice)
    run_queued_tasks()
    puzzles, cards = Puzzle.objects.count(), PuzzleCard.objects.count()
    assert mining.mine_game(game.pk) == Puzzle.objects.filter(game=game).count() >= 1
    assert (Puzzle.objects.count(), PuzzleCard.objects.count()) == (puzzles, cards)


def test_a_game_not_lost_gives_no_puzzle(alice: User) -> None:
    game = services.start_game(alice, code=TURNING_CODE)
    game = services.play_move(alice, game.pk, move="AD>F", version=game.version).game
    assert mining.mine_game(game.pk) == 0  # still played, never analysed
    assert mining.mine_game(10**6) == 0  # no such game
    assert not Puzzle.objects.exists()


def test_self_play_deals_fill_the_public_pool_with_positions_nobody_can_look_up() -> None:
    kept, tried = mining.mine_deals(2, ALASKA, random.Random("puzzle-pool"), max_deals=12)
    assert len(kept) >= 2 and tried <= 12
    for puzzle in kept:
        position = puzzle.position
        assert (position["code"], position["score"], position["move_count"]) == (None, 0, 0)
        assert position["undo"] == []
        assert puzzle.source == "self-play" and puzzle.game is None
        # Dealt under the self-play key: the game anyone may open with its number is
        # another deal.
        code = GameCode.parse(puzzle.code)
        assert deals.self_play_deal(code).columns != deals.new_game(code).columns
        board = read_private(position)
        assert puzzle.legal_moves == board.legal_moves.count()
        assert puzzle.plausible_moves == plausible_moves(board) >= PUBLIC_PLAUSIBLE
        assert Move.parse(puzzle.solution[0]) in board.legal_moves
        again = prove(board, mining.node_budget())
        assert again is not None
        assert [str(move) for move in again.solution] == puzzle.solution
        assert 1 <= puzzle.difficulty <= 5
        assert (puzzle.mu, puzzle.rating) == ratings.seed(puzzle.difficulty)[::2]


def test_the_command_mines_puzzles_from_self_play_deals() -> None:
    out = StringIO()
    call_command("mine_puzzles", "1", "--rule", "A", "--seed", "7", "--max-deals", "12", stdout=out)
    assert Puzzle.objects.filter(source="self-play").count() >= 1
    assert "puzzle(s) kept from" in out.getvalue()


def test_the_workers_restock_the_public_pool_one_deal_at_a_time(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PUZZLE_STOCK = 1
    drawn = random.Random("restock")
    monkeypatch.setattr(stock, "chooser", lambda: drawn)
    assert stock.restock() is True
    assert stock.restock() is False  # one is queued already
    for _ in range(10):
        assert run_queued_tasks() == 1
        if not stock.restock():
            break
    assert stock.unused() >= 1
    assert stock.restock() is False  # stocked
    assert run_queued_tasks() == 0


def test_the_workers_janitor_queues_one_restocking_at_a_time(
    transactional_db: None, settings: Any
) -> None:
    """What the janitor's rounds queue is the task `restock` looks for: a second round while
    it waits queues none."""
    settings.PUZZLE_STOCK = 1
    done = threading.Event()
    done.set()  # one round each
    worker._janitor(done)
    worker._janitor(done)
    queued = DBTaskResult.objects.filter(status="READY")
    assert list(queued.values_list("task_path", flat=True)) == [stock.MINE_TASK]
    settings.PUZZLE_STOCK = 0
    queued.delete()
    worker._janitor(done)
    assert not DBTaskResult.objects.exists()


def test_the_startup_starts_no_deal_after_its_time_bound() -> None:
    out = StringIO()
    call_command("stock_puzzles", "--seconds", "0", stdout=out)
    assert out.getvalue() == "0 public puzzle(s) ready, 0 self-play deal(s) mined.\n"
    assert not Puzzle.objects.exists()
