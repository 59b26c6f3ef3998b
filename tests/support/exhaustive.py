"""A plain exhaustive search over the engine's legal moves: the solver tests' independent judge."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from games.engine import Game


def exhaustively_winnable(start: Game, limit: int, key: Callable[[Game], Hashable]) -> bool | None:
    """Whether some sequence of legal moves wins, by depth-first search over positions told
    apart by ``key`` (None: more than ``limit`` positions)."""
    game = start.copy()
    seen = {key(game)}
    stack = [list(game.legal_moves)]
    while stack:
        if game.won:
            return True
        if not stack[-1]:
            stack.pop()
            if stack:
                game.pop()
            continue
        game.push(stack[-1].pop())
        position = key(game)
        if position in seen:
            game.pop()
            continue
        if len(seen) >= limit:
            return None
        seen.add(position)
        stack.append(list(game.legal_moves))
    return False
