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

from games.engine import ALASKA, CLASSIC, DEAL_COUNT, DEV_DEAL_KEY, RELAXED, Game, GameCode, Rule
from games.engine.cards import KINGS
from games.engine.solver import _position, rule_tables
from games.engine.solver_core import FOUND, Search
from tests.solver.test_soundness import late_position


def block_leaves_waiting(search: Search, seen: set[bytes]) -> bool:
    """Whether some chain of the main search's take-backs reaches a tableau move."""
    tableau, backs = search.pending_moves(search.pending)
    if tableau:
        return True
    seen.add(search.key())
    for _, card, k in backs:
        col = search.cols[k]
        waiting = search.took_back(card, col[-1] if col else -1)
        before = search.pending
        record = search.apply(card, k)
        search.pending = waiting
        found = search.key() not in seen and block_leaves_waiting(search, seen)
        search.undo(record)
        search.pending = before
        if found:
            return True
    return False


def dropped_blocks(game: Game) -> tuple[int, int]:
    """Check every take-back the test drops in the blocks from ``game``: (dropped, kept)."""
    columns, down, foundations = _position(game)
    search = Search(rule_tables(game.rule), columns, down, foundations)
    dropped = kept = 0

    def walk(depth: int) -> None:
        nonlocal dropped, kept
        if search.pending:
            _, backs = search.pending_moves(search.pending)
        else:
            backs = [
                (0, card, k)
                for k in range(7)
                for card in (search.children[search.cols[k][-1]] if search.cols[k] else KINGS)
                if search.loc[card] == FOUND
                and search.found[card // 13] == card % 13 + 1
                and not search.back_is_pointless(card)
            ]
        for _, card, k in backs:
            col = search.cols[k]
            waiting = search.took_back(card, col[-1] if col else -1)
            before = search.pending
            if not search.block_can_end(card, k, waiting):
                dropped += 1
                record = search.apply(card, k)
                search.pending = waiting
                assert not block_leaves_waiting(search, set()), (game.to_private(), card, k)
                search.undo(record)
                search.pending = before
            elif depth < 3:
                kept += 1
                record = search.apply(card, k)
                search.pending = waiting
                walk(depth + 1)
                search.undo(record)
                search.pending = before

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
