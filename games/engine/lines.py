"""Lines of moves as a person would follow them: no position twice.

The solver's lines are correct but not always natural: a search may move a card back and
forth (7♦ 2→6→2→6) or shuffle two groups and put them back, because it found the win
after such a detour. Any stretch of a line that comes back to a position the line was in
before changes nothing and is cut, so a hint never walks in circles and an analysis never
shows one. The result still replays to the same final position.

>>> from games.engine import Game, Move
>>> game = Game.from_layout([("", "KS"), ("", "KC"), ("", "QH"), ("", "KH")], [12, 11, 13, 12])
>>> moves = [Move.parse(t) for t in ("QH>1", "QH>2", "QH>1", "QH>F")]
>>> [str(m) for m in without_loops(game, moves)]
['QH>1', 'QH>F']
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import Game
from .moves import Move


def _position(game: Game) -> tuple[object, ...]:
    """The cards where they lie (not the score, the move count or the undo window)."""
    columns, down, foundations = game.layout()
    return (tuple(map(tuple, columns)), tuple(down), tuple(foundations))


def without_loops(game: Game, line: Sequence[Move]) -> list[Move]:
    """`line`, played from `game` (not changed), with every stretch that returns to an
    earlier position of the line cut out."""
    board = game.copy()
    kept: list[Move] = []
    seen = {_position(board): 0}  # position -> how many kept moves lead to it
    for move in line:
        board.play(move)
        kept.append(move)
        here = _position(board)
        if here in seen:  # back where the line was: the moves since change nothing
            del kept[seen[here] :]
            seen = {position: n for position, n in seen.items() if n <= seen[here]}
        else:
            seen[here] = len(kept)
    return kept
