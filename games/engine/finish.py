"""Finish: once every card is face up, the moves that carry the rest home.

With no face-down card nothing is hidden any more: the player sees every card the
search sees, so finding the way home is a chore, not a secret. Finish asks the solver
for that way (a node budget, so every server finds the same line), without the detours
a search may take (:func:`.lines.without_loops`); the moves are then played one by one
like any others, so they score exactly as if played by hand. A position can still be
blocked with every card face up (say, a King on the Ace of its column and no column
free): then there is no finishing line, and the player plays on by hand or undoes.

>>> game = Game.from_layout([("", "KS"), ("", "KH")], [12, 12, 13, 13])
>>> every_card_face_up(game), [str(move) for move in finishing_line(game) or []]
(True, ['KS>F', 'KH>F'])
"""

from __future__ import annotations

from typing import Final

from .game import Game
from .lines import without_loops
from .moves import Move
from .solver import solve

#: Solver positions a finish may search (all-face-up endings take a few dozen).
FINISH_NODE_BUDGET: Final = 20_000


def every_card_face_up(game: Game) -> bool:
    """Whether no card in any column is face down (Finish is offered from then on)."""
    return all(column.face_down == 0 for column in game.columns)


def finishing_line(game: Game, *, node_budget: int = FINISH_NODE_BUDGET) -> list[Move] | None:
    """The moves that win `game` (not changed) from a position with every card face up;
    None when there are none, or none within `node_budget` positions.

    Raises ValueError while a card is face down: the line would then depend on cards the
    player cannot see.
    """
    if not every_card_face_up(game):
        raise ValueError("a card is still face down: finish only once every card is face up")
    result = solve(game, node_budget=node_budget)
    if result.verdict != "winnable":
        return None
    return without_loops(game, result.line)
