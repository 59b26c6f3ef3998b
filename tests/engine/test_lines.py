"""Lines without loops: any stretch that returns to an earlier position is cut, and what is
left still leads to the same position, through no position twice."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import DEV_DEAL_KEY, Game, GameCode, Move
from games.engine.lines import _position, without_loops


def wander(seed: int, steps: int) -> tuple[Game, list[Move]]:
    """A deal and a random walk of legal moves from it (back-and-forth included)."""
    rng = random.Random(seed)
    start = Game.new(GameCode.random(rng=rng), DEV_DEAL_KEY)
    board, line = start.copy(), []
    for _ in range(steps):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        board.play(move)
        line.append(move)
    return start, line


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80))
def test_a_line_without_loops_ends_where_it_did_through_no_position_twice(
    seed: int, steps: int
) -> None:
    start, line = wander(seed, steps)
    kept = without_loops(start, line)
    assert len(kept) <= len(line)
    full, short = start.copy(), start.copy()
    for move in line:
        full.play(move)
    seen = {_position(short)}
    for move in kept:
        short.play(move)
        assert _position(short) not in seen, "a position came back"
        seen.add(_position(short))
    assert _position(short) == _position(full)


def test_a_card_moved_back_and_forth_is_cut() -> None:
    game = Game.from_layout([("", "KS"), ("", "KC"), ("", "QH"), ("", "KH")], [12, 11, 13, 12])
    moves = [Move.parse(t) for t in ("QH>1", "QH>2", "QH>1", "QH>2", "QH>1", "QH>F")]
    assert [str(m) for m in without_loops(game, moves)] == ["QH>1", "QH>F"]
