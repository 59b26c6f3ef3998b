"""Answering a puzzle: the server checks the moves, rates the first decided attempt, keeps the
streaks and moves the deck's card (docs/puzzles.md, "Answering").

An answer is the moves played so far, sent whole each time (`["7D>3"]`, then
`["7D>3", "KS>1"]`): nothing is kept between the moves of one answer. Each move must be
legal (else the engine's refusal, 422), then it is compared with the puzzle's:

- `continue`: every move so far is the answer's, more are to come; the board after them
  is given (the answer turns up no card before its last move, so it shows none);
- `solved`: the whole answer;
- `wrong-move`: a legal move that loses (every move but the answer's does: that is the
  puzzle). The moves after it are not looked at.

`solved` and `wrong-move` decide the attempt: it is stored, the answer (`solution`) is
told, and the player's first decided attempt at the puzzle is rated (games.puzzles.ratings)
when it may count (`counts_for_ratings`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts import moderation
from accounts.guests import is_guest
from games import days
from games.engine import Game, Move, read_private
from games.puzzles import daily, deck, ratings
from games.puzzles.errors import TooManyMoves
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleCard, PuzzlePlayer
from games.puzzles.public import board_of, card_view, visible_puzzle

type Outcome = Literal["solved", "continue", "wrong-move"]

#: What each outcome says (no card named: the sentence is the same for every puzzle).
SENTENCES: dict[str, Promise] = {
    "solved": _("Right: that is the only way to keep the win."),
    "continue": _("Right so far: find the next move."),
    "wrong-move": _("That move loses: after it the game can no longer be won."),
}


@dataclass(frozen=True)
class Answer:
    """What an attempt came to (`to_dict` is the API's answer)."""

    outcome: Outcome
    step: int
    puzzle: Puzzle
    board: dict[str, Any] | None = None
    rated: bool = False
    rating_before: float | None = None
    rating_after: float | None = None
    stats: PuzzlePlayer | None = None
    card: PuzzleCard | None = None

    def to_dict(self) -> dict[str, Any]:
        decided = self.outcome != "continue"
        stats = self.stats
        return {
            "outcome": self.outcome,
            "correct": self.outcome != "wrong-move",
            "message": str(SENTENCES[self.outcome]),
            "step": self.step,
            "moves_to_find": len(self.puzzle.solution),
            "board": self.board,
            "solution": list(self.puzzle.solution) if decided else None,
            "rated": self.rated,
            "rating_before": self.rating_before,
            "rating_after": self.rating_after,
            "puzzle_rating": self.puzzle.rating,
            "streak": stats.streak if stats is not None else None,
            "daily_streak": stats.daily_streak_on(days.today()) if stats is not None else None,
            "card": card_view(self.card) if self.card is not None else None,
        }


def check(puzzle: Puzzle, moves: list[str]) -> tuple[Outcome, int, Game]:
    """Compare the moves with the answer: the outcome, how many moves stood, the board then.

    A move that does not parse or is illegal raises the engine's error (400, 422)."""
    solution = puzzle.solution
    if len(moves) > len(solution):
        raise TooManyMoves(
            f"Puzzle {puzzle.pk} is answered in {len(solution)} move(s); {len(moves)} were sent."
        )
    board = read_private(puzzle.position)
    for step, text in enumerate(moves):
        move = Move.parse(text)
        board.check(move)
        if str(move) != solution[step]:
            return "wrong-move", step, board
        board.play(move)
    return ("solved" if len(moves) == len(solution) else "continue"), len(moves), board


def counts_for_ratings(player: User, puzzle: Puzzle) -> bool:
    """Whether `player`'s first decided attempt at `puzzle` moves ratings and streaks: a
    registered player's at a public (self-play) puzzle. A guest is a throwaway account, whose
    misses would push a puzzle's rating wherever its maker likes; a puzzle from a game has
    its answer in that game's analysis, so it is practice for its owner. A marked account
    (accounts.moderation) leaves every rating: its answers are practice too."""
    return (
        puzzle.source == Puzzle.Source.SELF_PLAY
        and not is_guest(player)
        and not moderation.is_marked(player)
    )


def attempt(player: User, puzzle_id: int, moves: list[str]) -> Answer:
    """Answer puzzle `puzzle_id` with `moves` (the whole answer so far)."""
    puzzle = visible_puzzle(puzzle_id, player)
    outcome, step, board = check(puzzle, moves)
    if outcome == "continue":
        return Answer(outcome, step, puzzle, board=board_of(board))
    correct = outcome == "solved"
    now = timezone.now()
    today = days.today()
    with transaction.atomic():
        stats = ratings.locked_player(player.pk)  # one answer of a player at a time
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        rated = (
            counts_for_ratings(player, puzzle)
            and not PuzzleAttempt.objects.filter(player=player, puzzle=puzzle, rated=True).exists()
        )
        daily_date = today if daily.stored_puzzle_id(today) == puzzle.pk else None
        before = stats.rating
        if rated:
            ratings.rate(stats, puzzle, correct)
            _count(stats, correct, daily_date)
        PuzzleAttempt.objects.create(
            player=player,
            puzzle=puzzle,
            moves=moves[: step + 1],
            correct=correct,
            rated=rated,
            rating_before=before if rated else None,
            rating_after=stats.rating if rated else None,
            sigma_after=stats.sigma if rated else None,
            daily_date=daily_date,
        )
        card = deck.review(player.pk, puzzle, correct, now)
    return Answer(
        outcome,
        step,
        puzzle,
        rated=rated,
        rating_before=before if rated else None,
        rating_after=stats.rating if rated else None,
        stats=stats,
        card=card,
    )


def _count(stats: PuzzlePlayer, correct: bool, daily_date: date | None) -> None:
    """A rated attempt's counts and streaks (the row is saved by the caller's rating)."""
    stats.attempts += 1
    stats.solved += correct
    stats.streak = stats.streak + 1 if correct else 0
    stats.best_streak = max(stats.best_streak, stats.streak)
    if daily_date is not None:
        if correct:
            stats.daily_streak = stats.daily_streak_on(daily_date) + 1
            stats.last_daily = daily_date
        else:
            stats.daily_streak = 0
        stats.best_daily_streak = max(stats.best_daily_streak, stats.daily_streak)
    stats.save()
