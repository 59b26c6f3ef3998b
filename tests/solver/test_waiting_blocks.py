"""The main search's test that a block of take-backs can end, against the search itself.

``Search.block_can_end`` drops a take-back after which no chain of take-backs
leads to a tableau move onto the one card left waiting (docs/solver.md,
"Waiting sets that cannot end"). Here every take-back it drops is followed
the long way, with the search's own move generation for waiting positions:
no position reached that way may have a tableau move.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    ALASKA,
    CLASSIC,
    DEAL_COUNT,
    DEV_DEAL_KEY,
    RELAXED,
    Game,
    GameCode,
    Rule,
    private_form,
)
from games.engine.cards import KINGS
from games.engine.solver import rule_tables
from games.engine.solver_core import _CARD_SHIFT, _DEST_SHIFT, FOUND, Search
from tests.solver.test_soundness import late_position


def take_back(search: Search, card: int, k: int) -> tuple[int, int, bytes]:
    """Take ``card`` back onto column ``k`` as the main search does; what :func:`put_back` needs."""
    before = (search.code, search.pending)
    waiting = search.took_back(card, search.top(k))
    record = search.apply(card, k)
    search.set_pending(waiting)
    return record, *before


def put_back(search: Search, undo: tuple[int, int, bytes]) -> None:
    record, code, pending = undo
    search.undo(record)
    search.code = code
    search.pending = pending


def backs_of(search: Search) -> list[tuple[int, int]]:
    """The take-backs the main search generates while cards wait: (card, column)."""
    _, backs = search.pending_moves(search.pending)
    return [((back >> _CARD_SHIFT) & 63, (back >> _DEST_SHIFT) & 7) for back in backs]


def block_leaves_waiting(search: Search, seen: set[int]) -> bool:
    """Whether some chain of the main search's take-backs reaches a tableau move."""
    tableau, _ = search.pending_moves(search.pending)
    if tableau:
        return True
    seen.add(search.key())
    for card, k in backs_of(search):
        undo = take_back(search, card, k)
        found = search.key() not in seen and block_leaves_waiting(search, seen)
        put_back(search, undo)
        if found:
            return True
    return False


def dropped_blocks(game: Game) -> tuple[int, int]:
    """Check every take-back the test drops in the blocks from ``game``: (dropped, kept)."""
    columns, down, foundations = game.layout()
    search = Search(rule_tables(game.rule), columns, down, foundations)
    dropped = kept = 0

    def walk(depth: int) -> None:
        nonlocal dropped, kept
        if search.pending:
            backs = backs_of(search)
        else:
            backs = [
                (card, k)
                for k in range(7)
                for card in (search.children[search.top(k)] if search.lens[k] else KINGS)
                if search.loc[card] == FOUND
                and search.found[card // 13] == card % 13 + 1
                and not search.back_is_pointless(card)
            ]
        for card, k in backs:
            waiting = search.took_back(card, search.top(k))
            if not search.block_can_end(card, k, waiting):
                dropped += 1
                undo = take_back(search, card, k)
                assert not block_leaves_waiting(search, set()), (private_form(game), card, k)
                put_back(search, undo)
            elif depth < 3:
                kept += 1
                undo = take_back(search, card, k)
                walk(depth + 1)
                put_back(search, undo)

    walk(0)
    return dropped, kept


def played_position(rule: Rule, rng: random.Random) -> Game:
    """A random deal after up to 80 random legal moves (take-backs included)."""
    game = Game.new(GameCode(rule, rng.randrange(DEAL_COUNT)), DEV_DEAL_KEY)
    for _ in range(rng.randrange(80)):
        moves = list(game.legal_moves)
        if not moves or game.won:
            break
        game.play(rng.choice(moves))
    return game


@pytest.mark.parametrize("rule", [CLASSIC, RELAXED, ALASKA])
def test_a_dropped_take_back_never_leads_out_of_waiting(rule: Rule) -> None:
    rng = random.Random(rule.letter)
    dropped = kept = 0
    for n in range(150):
        game = played_position(rule, rng) if n % 2 else late_position(rng, [rule])
        if game.won:
            continue
        d, k = dropped_blocks(game)
        dropped += d
        kept += k
    # The check means something only if the test drops take-backs and keeps others.
    assert dropped >= 20
    assert kept >= 20
