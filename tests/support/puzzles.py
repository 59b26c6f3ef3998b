"""Puzzles for tests: the pinned small positions (tests/puzzles/data), proven and stored."""

from __future__ import annotations

from typing import Any

from games.engine import Game as EngineGame
from games.engine import read_private
from games.models import Game
from games.puzzles.mining import Candidate, store
from games.puzzles.models import Puzzle
from games.puzzles.proof import plausible_moves, prove
from tests.puzzles.small_positions import pinned

#: Enough for every pinned position (they are small).
NODES = 200_000


def pinned_positions() -> list[EngineGame]:
    return [game for game, _ in pinned()]


def stored_puzzle(
    position: EngineGame,
    *,
    game: Game | None = None,
    version: int | None = None,
    line_step: int = 0,
) -> Puzzle:
    """Prove `position` and keep it, as the mining does."""
    proof = prove(position, NODES)
    assert proof is not None, str(position)
    candidate = Candidate(position, version, line_step)
    return store(candidate, proof, code=game.code if game else "YU1-C-AAAAAAB", game=game)


def seeded(
    count: int = 1, *, steps: int | None = None, plausible: int = 2, **where: Any
) -> list[Puzzle]:
    """`count` puzzles from the pinned positions (of answers `steps` long, if given), of at
    least `plausible` plausible moves (3 of them may be a daily puzzle: #3, #27, #30)."""
    kept: list[Puzzle] = []
    for position in pinned_positions():
        proof = prove(position, NODES)
        assert proof is not None
        if steps is not None and len(proof.steps) != steps:
            continue
        if plausible_moves(position) < plausible:
            continue
        kept.append(stored_puzzle(position, **where))
        if len(kept) == count:
            return kept
    raise AssertionError(f"fewer than {count} pinned puzzles of {steps} steps")


def hidden_cards(puzzle: Puzzle) -> set[str]:
    """The puzzle position's face-down cards (server side only)."""
    engine = read_private(puzzle.position)
    return {str(card) for column in engine.hidden_cards() for card in column}
