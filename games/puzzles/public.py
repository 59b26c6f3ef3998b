"""What a player sees of a puzzle: its public board and legal moves, never a face-down card.

The board is the engine's public form (face-down cards only counted) without the deal's
code, score or move count, which belong to no puzzle. The answer is shown only to a player
who has answered the puzzle (solved it or missed it).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from games import days
from games.engine import Game, public_form, read_private
from games.fairness import solver_help, visibility
from games.puzzles.errors import PuzzleNotFound
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleCard, PuzzlePlayer
from games.puzzles.ratings import band, solve_chance, starting_rating

#: The engine's public fields a puzzle's board keeps.
BOARD_FIELDS = ("rule", "columns", "foundations", "cards_on_foundations", "legal_moves")


def board_of(game: Game) -> dict[str, Any]:
    """A position as a puzzle shows it."""
    public = public_form(game)
    return {name: public[name] for name in BOARD_FIELDS}


def may_see(puzzle: Puzzle, viewer: User | AnonymousUser) -> bool:
    """Whether `viewer` may see `puzzle`: as games.fairness.visibility says, and not while the
    viewer has a ranked attempt of its game's deal in play (a puzzle is the solver's help on
    that deal, as an analysis is: games.fairness.solver_help)."""
    if not visibility.puzzle_visible(puzzle, viewer):
        return False
    return puzzle.game is None or solver_help.help_allowed(viewer, puzzle.game)


def visible_puzzle(puzzle_id: int, viewer: User | AnonymousUser) -> Puzzle:
    """The puzzle if `viewer` may see it; `puzzle-not-found` otherwise (also when hidden)."""
    puzzle = Puzzle.objects.select_related("game").filter(pk=puzzle_id).first()
    if puzzle is None or not may_see(puzzle, viewer):
        raise PuzzleNotFound(f"There is no puzzle {puzzle_id}.")
    return puzzle


def card_view(card: PuzzleCard) -> dict[str, Any]:
    return {"box": card.box, "due_at": card.due_at.isoformat(), "own": card.own}


def puzzle_view(puzzle: Puzzle, viewer: User | AnonymousUser) -> dict[str, Any]:
    """The puzzle as `viewer` sees it (who may see it at all: `visible_puzzle`)."""
    player = viewer if isinstance(viewer, User) else None
    first = (
        PuzzleAttempt.objects.filter(player=player, puzzle=puzzle).order_by("pk").first()
        if player is not None
        else None
    )
    card = (
        PuzzleCard.objects.filter(player=player, puzzle=puzzle).first()
        if player is not None
        else None
    )
    chance = solve_chance(puzzle)
    return {
        "id": puzzle.pk,
        "rule": puzzle.rule,
        "difficulty": puzzle.difficulty,
        "rating": puzzle.rating,
        "solve_chance": round(chance, 2),
        "band": band(chance),
        "moves_to_find": len(puzzle.solution),
        "origin": puzzle.source,
        "yours": card is not None and card.own,
        "board": board_of(read_private(puzzle.position)),
        "answered": (
            {"correct": first.correct, "solution": list(puzzle.solution)}
            if first is not None
            else None
        ),
        "card": card_view(card) if card is not None else None,
    }


def me_view(viewer: User | AnonymousUser) -> dict[str, Any] | None:
    """The viewer's puzzle rating, counts, streaks and deck (None when signed out)."""
    if not isinstance(viewer, User):
        return None
    stats = PuzzlePlayer.objects.filter(player=viewer).first()
    cards = PuzzleCard.objects.filter(player=viewer)
    return {
        "rating": stats.rating if stats is not None else starting_rating(),
        "attempts": stats.attempts if stats is not None else 0,
        "solved": stats.solved if stats is not None else 0,
        "streak": stats.streak if stats is not None else 0,
        "best_streak": stats.best_streak if stats is not None else 0,
        "daily_streak": stats.daily_streak_on(days.today()) if stats is not None else 0,
        "best_daily_streak": stats.best_daily_streak if stats is not None else 0,
        "deck": cards.count(),
        "due": cards.filter(due_at__lte=timezone.now()).count(),
        "next_due_at": _next_due(cards),
    }


def _next_due(cards: Any) -> str | None:
    upcoming = cards.order_by("due_at").values_list("due_at", flat=True).first()
    return upcoming.isoformat() if upcoming is not None else None
