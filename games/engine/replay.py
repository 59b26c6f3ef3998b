"""Rebuild a game from its code and move log, fast enough to do per request."""

from __future__ import annotations

from collections.abc import Iterable

from .codes import GameCode
from .game import Game
from .moves import MOVE_BY_TEXT, Move

#: The log entry that stands for an undo.
UNDO_ENTRY = "undo"


def replay(code: GameCode, key: bytes, log: Iterable[str]) -> Game:
    """The game after playing ``log`` (move texts and ``"undo"``) from the deal.

    Each entry is checked with the O(1) legality test; only a refused entry
    pays for the precise error, which is raised as :class:`IllegalMoveError`
    (or :class:`InvalidMoveError` for text that is not a move).
    """
    game = Game.new(code, key)
    for entry in log:
        if entry == UNDO_ENTRY:
            game.undo()
            continue
        move = MOVE_BY_TEXT.get(entry) or Move.parse(entry)
        c = move.card.index
        if not game._is_legal(c, move.to):
            game.check(move)
        game._play(c, move.to)
    return game
