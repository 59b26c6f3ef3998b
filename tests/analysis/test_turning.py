"""Where the win was lost: the turning point a lost game's analysis names, checked against an
independent position-by-position solve; none for a won game or a deal never winnable."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games import deals, services
from games.engine import Move
from games.engine.lines import _position
from games.engine.solver import solve
from games.models import Game
from tests.analysis.test_analysis import analysis
from tests.support.analysis import abandoned, lost_game
from tests.support.play import token_client, winning_line
from tests.support.tasks import run_queued_tasks

#: Enough for the independent check to decide every position of these short games.
CHECK_NODES = 400_000
#: A Russian deal proven lost from the start (1 node).
LOST_FROM_THE_START = "YU1-U-AAAAAAB"


def verdicts_one_by_one(game: Game) -> list[str]:
    """Every version's verdict, each position solved on its own (no search over the log)."""
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    return [
        solve(deals.replayed(game, texts[:version]), node_budget=CHECK_NODES).verdict
        for version in range(len(texts) + 1)
    ]


@pytest.mark.django_db
def test_a_lost_games_turning_point_is_its_last_winnable_position(
    alice: User, settings: Any
) -> None:
    settings.ANALYSIS_POSITION_NODES = 20_000
    game = lost_game(alice)
    run_queued_tasks()
    report = analysis(token_client(alice), game.pk)
    assert report["turning"] == "lost", report["verdicts"]
    turning = report["turning_point"]
    version = turning["version"]
    independent = verdicts_one_by_one(game)
    assert independent[version - 1] == "winnable"
    assert set(independent[version:]) == {"unwinnable"}
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    assert turning["move"] == texts[version - 1]
    assert report["losing_move"]["version"] == version
    before = deals.replayed(game, texts[: version - 1])
    seen = {_position(before)}
    for move in turning["line"]:  # the better way, played: a win through no position twice
        before.play(Move.parse(move))
        assert _position(before) not in seen
        seen.add(_position(before))
    assert before.won
    assert report["losing_move"]["better_move"] == turning["line"][0]


@pytest.mark.django_db
def test_the_turning_point_after_an_undo_is_the_last_loss(alice: User, settings: Any) -> None:
    """A loss undone is no turning point: the game could be won again after it."""
    settings.ANALYSIS_POSITION_NODES = 20_000
    game = lost_game(alice)
    game = Game.objects.get(pk=game.pk)
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    run_queued_tasks()
    first = analysis(token_client(alice), game.pk)["turning_point"]["version"]
    # The same moves up to that loss, the loss undone, then played again with the rest.
    again = services.start_game(alice, code=game.code)
    for move in texts[:first]:
        again = services.play_move(alice, again.pk, move=move, version=again.version).game
    again = services.undo(alice, again.pk, version=again.version).game
    for move in texts[first - 1 :]:
        again = services.play_move(alice, again.pk, move=move, version=again.version).game
    again = abandoned(alice, again)
    run_queued_tasks()
    report = analysis(token_client(alice), again.pk)
    assert report["turning"] == "lost"
    assert report["turning_point"]["version"] == first + 2  # after the undo, not before it


@pytest.mark.django_db
def test_a_won_game_and_a_deal_never_winnable_have_no_turning_point(alice: User) -> None:
    code, line = winning_line()
    won = services.start_game(alice, code=code)
    for move in line:
        won = services.play_move(alice, won.pk, move=move, version=won.version).game
    hopeless = services.start_game(alice, code=LOST_FROM_THE_START)
    engine = deals.current(hopeless)
    for _ in range(5):
        chosen = sorted(engine.legal_moves, key=str)[0]
        engine.play(chosen)
        hopeless = services.play_move(
            alice, hopeless.pk, move=str(chosen), version=hopeless.version
        ).game
    hopeless = abandoned(alice, hopeless)
    run_queued_tasks()
    client = token_client(alice)
    assert analysis(client, won.pk)["turning"] == "not-lost"
    assert analysis(client, won.pk)["turning_point"] is None
    report = analysis(client, hopeless.pk)
    assert report["turning"] == "never-winnable" and report["turning_point"] is None
    assert report["losing_move"] is None
