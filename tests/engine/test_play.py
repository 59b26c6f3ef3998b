"""Score, move counter, undo and winning, as RULES.md defines them."""

from __future__ import annotations

import pytest

from games.engine import (
    CLASSIC,
    DEV_DEAL_KEY,
    UNDO_LIMIT,
    Card,
    Game,
    GameCode,
    IllegalMoveError,
    Move,
    replay,
)

from .lines import winning_line
from .positions import position


def test_a_win_without_take_backs_scores_625() -> None:
    code, moves = winning_line()
    assert code.rule is CLASSIC
    game = Game.new(code, DEV_DEAL_KEY)
    turned = 0
    for move in moves[:-1]:
        result = game.play(move)
        assert not result.is_take_back and not result.won
        turned += result.turned_up is not None
    last = game.play(moves[-1])
    assert last.won and game.won and turned == 21
    assert game.score == last.score == 625 == 52 * 10 + 21 * 5
    assert game.move_count == len(moves)
    assert replay(code, DEV_DEAL_KEY, [str(m) for m in moves]) == game


def test_a_take_back_then_re_placing_earns_ten_again() -> None:
    game = position({1: ("", "2H"), 7: ("", "JC")}, foundations=(1, 0, 0, 0), stash=6)
    assert game.play(Move.parse("AS>1")).score_delta == 0
    assert game.score == 0 and game.cards_on_foundations == 0
    result = game.play(Move.parse("AS>F"))
    assert result.score_delta == 10 and game.score == 10 and game.move_count == 2


def test_turning_up_a_card_scores_five() -> None:
    game = position({1: ("", "8S"), 2: ("5D", "7H"), 7: ("", "JC")})
    result = game.play(Move.parse("7H>1"))
    assert result.turned_up == Card.parse("5D") and result.score_delta == 5 and game.score == 5
    assert game.column(1).face_down == 0 and game.column(1).face_up == (Card.parse("5D"),)


def test_a_foundation_move_that_turns_up_a_card_scores_fifteen() -> None:
    game = position({1: ("5D", "AS"), 7: ("", "JC")})
    result = game.play(Move.parse("AS>F"))
    assert result.score_delta == 15 and result.score == 15


def test_undo_restores_score_and_faces_but_not_the_move_counter() -> None:
    game = position({1: ("", "8S"), 2: ("5D", "7H"), 7: ("", "JC")})
    before = game.state_key()
    game.play(Move.parse("7H>1"))
    undone = game.undo()
    assert undone.move == Move.parse("7H>1") and undone.cards == (Card.parse("7H"),)
    assert undone.turned_down and undone.returned_to == 1
    assert undone.score_delta == -5 and undone.score == game.score == 0
    assert undone.move_count == game.move_count == 1
    assert game.state_key() == before
    assert game.column(1).face_down == 1 and game.column(1).face_up == (Card.parse("7H"),)


def test_undo_of_a_take_back_puts_the_card_back_on_its_foundation() -> None:
    game = position({1: ("", "2H"), 7: ("", "JC")}, foundations=(1, 0, 0, 0))
    game.play(Move.parse("AS>1"))
    undone = game.undo()
    assert undone.returned_to == -1 and not undone.turned_down
    assert game.foundation(0).top == Card.parse("AS") and game.score == 0


def test_undo_of_a_foundation_move_takes_the_ten_points_back() -> None:
    game = position({1: ("5D", "AS"), 7: ("", "JC")})
    game.play(Move.parse("AS>F"))
    assert game.undo().score_delta == -15 and game.score == 0
    assert game.column(0).face_down == 1 and game.cards_on_foundations == 0


def shuttle(plays: int) -> Game:
    """A position where 7H shuttles between two black eights, played ``plays`` times."""
    game = position({1: ("", "8S"), 2: ("", "8C 7H"), 7: ("", "JC")})
    for i in range(plays):
        game.play(Move.parse("7H>1" if i % 2 == 0 else "7H>2"))
    return game


def test_the_last_hundred_moves_can_be_undone_and_no_more() -> None:
    game = shuttle(130)
    assert game.undo_depth == UNDO_LIMIT == 100
    for i in range(100):
        game.undo()
        assert game.undo_depth == 99 - i
    assert game.move_count == 130
    with pytest.raises(IllegalMoveError) as caught:
        game.undo()
    assert caught.value.code == "nothing-to-undo" and caught.value.rule == "undo"


def test_undo_depth_counts_up_to_the_limit_again_after_undos() -> None:
    game = shuttle(100)
    game.undo()
    game.undo()
    assert game.undo_depth == 98
    game.play(Move.parse("7H>1"))
    assert game.undo_depth == 99


def test_nothing_to_undo_at_the_start() -> None:
    game = Game.new(GameCode.parse("YU1-C-AAAAAAB"), DEV_DEAL_KEY)
    assert game.undo_depth == 0
    with pytest.raises(IllegalMoveError) as caught:
        game.undo()
    assert caught.value.code == "nothing-to-undo"


def test_push_and_pop_restore_the_exact_state() -> None:
    game = Game.new(GameCode.parse("YU1-R-AAAAAAQ"), DEV_DEAL_KEY)
    game.play(next(iter(game.legal_moves)))
    snapshot = game.copy()
    for move in list(game.legal_moves):
        game.push(move)
        assert game.pop() == move
        assert game == snapshot


def test_copies_are_independent() -> None:
    game = Game.new(GameCode.parse("YU1-C-AAAAAAQ"), DEV_DEAL_KEY)
    other = game.copy()
    other.play(next(iter(other.legal_moves)))
    assert game != other and game.move_count == 0
