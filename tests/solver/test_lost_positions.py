"""Positions the searches put in the shared lost set are lost, by a plain search of the engine.

Every search closes strongly connected components of positions it has fully
explored without a win, and shares them with the other searches of the same
:func:`~games.engine.solver_core.search` (docs/solver.md, "Lost positions").
Here each such position (of the ones without waiting cards, which every search
may prune) is rebuilt as a game and judged by the plain exhaustive search of
``tests/support/exhaustive.py``, which knows none of the solver's reductions.
"""

from __future__ import annotations

import random

from games.engine import ALASKA, CLASSIC, RELAXED, RUSSIAN, Game, private_form
from games.engine.cards import CARD_TEXT
from games.engine.solver import rule_tables
from games.engine.solver_core import BOTTOM, HIDDEN, HOME, WAITING, Search
from tests.solver.test_soundness import late_position, plainly_winnable


def game_of(code: int, rule_game: Game) -> Game | None:
    """The position of a state key (None when cards wait after a take-back)."""
    byte = [(code >> (8 * card)) & 255 for card in range(52)]
    if code >> 416 or any(b & WAITING for b in byte):
        return None
    above = {b & 63: card for card, b in enumerate(byte) if (b & 63) < 52}
    columns = []
    for card, b in enumerate(byte):
        if b & 63 == BOTTOM:
            column = [card]
            while column[-1] in above:
                column.append(above[column[-1]])
            hidden = [c for c in column if byte[c] & HIDDEN]
            shown = column[len(hidden) :]
            columns.append(
                (" ".join(CARD_TEXT[c] for c in hidden), " ".join(CARD_TEXT[c] for c in shown))
            )
    foundations = [sum(1 for r in range(13) if byte[s * 13 + r] & 63 == HOME) for s in range(4)]
    return Game.from_layout(columns, foundations, rule=rule_game.rule)


def test_every_shared_lost_position_is_lost() -> None:
    rng = random.Random(13)
    checked = 0
    for n in range(40):
        game = late_position(rng, [CLASSIC, RELAXED, RUSSIAN, ALASKA][n % 4 :][:1])
        if game.won:
            continue
        columns, down, foundations = game.layout()
        tables = rule_tables(game.rule)
        lost: set[int] = set()
        main = Search(tables, columns, down, foundations, lost=lost)
        probe = Search(
            tables, columns, down, foundations, noise=120, seed=n, lost=lost, free_take_backs=True
        )
        probe.run(300)
        main.run(3000)
        for code in sorted(lost)[:20]:
            position = game_of(code, game)
            if position is None:
                continue
            assert plainly_winnable(position) is not True, private_form(position)
            checked += 1
    assert checked >= 50
