"""Puzzle ratings with openskill's Plackett-Luce model, the one races use: each rated attempt
is a match of two, the player against the puzzle, which the player wins by solving it.

Puzzles are rated too, so a puzzle many players miss rises and one everybody solves sinks.
A puzzle starts from its difficulty (`seed`); a player starts at openskill's default, whose
ordinal (the shown rating, mu - 3 sigma) is 0. Only a player's first decided attempt at a
puzzle is rated (games.puzzles.attempts).

The ordinal is cautious: it rises as a rating grows surer, so a puzzle that many players
tried shows a higher number at the same strength. What a puzzle's rating means is said by
`solve_chance` (how often a new player solves it) and its `band`.
"""

from __future__ import annotations

from django.utils import timezone
from openskill.models import PlackettLuce

from games.puzzles.models import Puzzle, PuzzlePlayer

_MODEL = PlackettLuce()
#: A puzzle's starting mu moves this far per difficulty step away from the middle (3).
MU_PER_DIFFICULTY = 3.0
#: The bands, each from the least chance a new player has to solve its puzzles (the rest:
#: `very-hard`). New puzzles of difficulty 1 and 2 start easy, 3 medium, 4 and 5 hard.
BANDS = (("easy", 0.55), ("medium", 0.45), ("hard", 0.25))


def seed(difficulty: int) -> tuple[float, float, float]:
    """A new puzzle's (mu, sigma, rating): harder puzzles start higher."""
    start = _MODEL.rating()
    mu = start.mu + MU_PER_DIFFICULTY * (difficulty - 3)
    return mu, start.sigma, _MODEL.rating(mu=mu, sigma=start.sigma).ordinal()


def locked_player(player_id: int) -> PuzzlePlayer:
    """The player's puzzle row, made on first use, locked for this transaction."""
    rows = PuzzlePlayer.objects.select_for_update()
    row = rows.filter(player_id=player_id).first()
    if row is None:
        fresh = _MODEL.rating()
        PuzzlePlayer.objects.bulk_create(
            [
                PuzzlePlayer(
                    player_id=player_id, mu=fresh.mu, sigma=fresh.sigma, rating=fresh.ordinal()
                )
            ],
            ignore_conflicts=True,
        )
        row = rows.get(player_id=player_id)
    return row


def starting_rating() -> float:
    """A player's rating before their first rated attempt."""
    return float(_MODEL.rating().ordinal())


def rate(player: PuzzlePlayer, puzzle: Puzzle, solved: bool) -> None:
    """Fold one rated attempt into both rows (locked by the caller) and save them."""
    ranks = [1.0, 2.0] if solved else [2.0, 1.0]
    (mine,), (its,) = _MODEL.rate(
        [
            [_MODEL.rating(mu=player.mu, sigma=player.sigma)],
            [_MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)],
        ],
        ranks=ranks,
    )
    player.mu, player.sigma, player.rating = mine.mu, mine.sigma, mine.ordinal()
    player.updated_at = timezone.now()
    player.save()
    puzzle.mu, puzzle.sigma, puzzle.rating = its.mu, its.sigma, its.ordinal()
    puzzle.attempts += 1
    puzzle.solved += solved
    puzzle.save(update_fields=["mu", "sigma", "rating", "attempts", "solved"])


def solve_chance(puzzle: Puzzle) -> float:
    """How often a new player solves `puzzle`, by openskill's prediction (0 to 1)."""
    chance, _ = _MODEL.predict_win(
        [[_MODEL.rating()], [_MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)]]
    )
    return float(chance)


def band(chance: float) -> str:
    """A word for a puzzle a new player solves with `chance`: easy, medium, hard, very-hard."""
    return next((name for name, least in BANDS if chance >= least), "very-hard")
