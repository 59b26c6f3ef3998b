"""A game is its code plus its move log."""

from __future__ import annotations

import pytest

from games.engine import (
    DEV_DEAL_KEY,
    Game,
    GameCode,
    IllegalMoveError,
    InvalidMoveError,
    replay,
)

from .lines import winning_line


def test_replay_reproduces_play_and_undo() -> None:
    code, moves = winning_line()
    game = Game.new(code, DEV_DEAL_KEY)
    log = []
    for i, move in enumerate(moves[:30]):
        game.play(move)
        log.append(str(move))
        if i % 7 == 6:
            game.undo()
            game.play(move)
            log += ["undo", str(move)]
    assert replay(code, DEV_DEAL_KEY, log) == game


def test_replay_accepts_any_move_spelling() -> None:
    code, moves = winning_line()
    log = [str(m).lower().replace("10", "t") for m in moves]
    assert replay(code, DEV_DEAL_KEY, log).won


def test_replay_refuses_an_illegal_entry_with_the_precise_error() -> None:
    code = GameCode.parse("YU1-C-AAAAAAB")
    with pytest.raises(IllegalMoveError) as caught:
        replay(code, DEV_DEAL_KEY, ["6S>1", "7H>3"])
    assert caught.value.code == "wrong-rank"
    with pytest.raises(IllegalMoveError) as undo:
        replay(code, DEV_DEAL_KEY, ["undo"])
    assert undo.value.code == "nothing-to-undo"
    with pytest.raises(InvalidMoveError):
        replay(code, DEV_DEAL_KEY, ["6S to 1"])


def test_replay_refuses_moves_after_a_win() -> None:
    code, moves = winning_line()
    with pytest.raises(IllegalMoveError) as caught:
        replay(code, DEV_DEAL_KEY, [*map(str, moves), "undo"])
    assert caught.value.code == "game-won"
