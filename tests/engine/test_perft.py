"""Move-generation regression counts, like chess perft files.

For each deal code in ``data/perft.txt`` (development key) the file holds the
legal-move count at the start and after each ply of a fixed line: always play
the first legal move (in the documented order) whose card is not the card the
previous ply moved, for 30 plies or until no such move is left.
Line format: ``<code> <score at the end> <count at start> <count after ply 1> ...``.
"""

from __future__ import annotations

from pathlib import Path

from games.engine import DEV_DEAL_KEY, RULES, Game, GameCode

PERFT = Path(__file__).parent / "data" / "perft.txt"
PLIES = 30


def perft_line(code: GameCode) -> tuple[int, list[int]]:
    """The final score and the legal-move counts along the fixed line."""
    game = Game.new(code, DEV_DEAL_KEY)
    counts = [game.legal_moves.count()]
    last = None
    for _ in range(PLIES):
        move = next((m for m in game.legal_moves if m.card != last), None)
        if move is None:
            break
        game.play(move)
        last = move.card
        counts.append(game.legal_moves.count())
    return game.score, counts


def format_line(code: GameCode) -> str:
    """One line of ``perft.txt`` for ``code``."""
    score, counts = perft_line(code)
    return " ".join([str(code), str(score), *map(str, counts)])


def test_move_generation_matches_the_recorded_counts() -> None:
    lines = [line for line in PERFT.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) >= 20
    assert {line[4] for line in lines} == set(RULES)  # every rule has pinned counts
    for line in lines:
        code = GameCode.parse(line.split()[0])
        assert format_line(code) == line
