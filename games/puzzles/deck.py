"""A player's personal deck: their own turning points and the puzzles they missed, reviewed
with spaced repetition in Leitner boxes (docs/puzzles.md, "Your deck").

A card answered right when due moves up a box and comes back after that box's interval;
answered wrong it goes back to box 1 and comes back the next day. `next_for` serves the
player's due cards first (their own turning points before the rest), then a puzzle they
have never tried, as close to their rating as the pool has.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import F, Func
from django.utils import timezone

from games.fairness import visibility
from games.puzzles.models import Puzzle, PuzzleCard, PuzzlePlayer
from games.puzzles.public import may_see
from games.puzzles.ratings import starting_rating

#: How long a card rests in each box (1 to 5) before it is due again.
INTERVALS = (
    timedelta(days=1),
    timedelta(days=3),
    timedelta(days=7),
    timedelta(days=16),
    timedelta(days=35),
)
#: A wrong answer brings a card back after this long (box 1's interval).
RELEARN = INTERVALS[0]
#: Due cards (then new puzzles) looked at per request for one the player may see now.
DUE_WINDOW = 50


def add_own(player_id: int, puzzle: Puzzle) -> None:
    """A puzzle mined from the player's own game: into their deck, due at once."""
    PuzzleCard.objects.get_or_create(
        player_id=player_id, puzzle=puzzle, defaults={"own": True, "due_at": timezone.now()}
    )


def review(player_id: int, puzzle: Puzzle, correct: bool, now: datetime) -> PuzzleCard | None:
    """A decided answer to a puzzle: the player's card moves if it was due; a missed puzzle
    without a card gets one (due again tomorrow). The card, or None."""
    card = PuzzleCard.objects.select_for_update().filter(player_id=player_id, puzzle=puzzle).first()
    if card is None:
        if correct:
            return None
        card, _ = PuzzleCard.objects.get_or_create(
            player_id=player_id,
            puzzle=puzzle,
            defaults={"own": False, "lapses": 1, "reviews": 1, "due_at": now + RELEARN},
        )
        return card
    if card.due_at > now:
        return card  # reviewed early (a direct link): the schedule stays
    card.box = min(card.box + 1, len(INTERVALS)) if correct else 1
    card.lapses += not correct
    card.reviews += 1
    card.due_at = now + INTERVALS[card.box - 1]
    card.save(update_fields=["box", "lapses", "reviews", "due_at"])
    return card


def due_count(player: User) -> int:
    return PuzzleCard.objects.filter(player=player, due_at__lte=timezone.now()).count()


def next_for(player: User, today_puzzle: int | None) -> tuple[Puzzle | None, str | None]:
    """The player's next puzzle and why: `due` (a card of their deck) or `new` (never tried,
    near their rating); (None, None) when there is none."""
    due = (
        PuzzleCard.objects.filter(player=player, due_at__lte=timezone.now())
        .select_related("puzzle__game")
        .order_by("-own", "due_at", "pk")
    )
    for card in due[:DUE_WINDOW]:
        if may_see(card.puzzle, player):
            return card.puzzle, "due"
    stats = PuzzlePlayer.objects.filter(player=player).first()
    rating = stats.rating if stats is not None else starting_rating()
    fresh = (
        Puzzle.objects.select_related("game")
        .filter(visibility.puzzles_open_to_anyone())
        .exclude(tries__player=player)
        .exclude(cards__player=player)
        .annotate(distance=Func(F("rating") - rating, function="ABS"))
        .order_by("distance", "pk")
    )
    if today_puzzle is not None:
        fresh = fresh.exclude(pk=today_puzzle)
    for puzzle in fresh[:DUE_WINDOW]:
        if may_see(puzzle, player):
            return puzzle, "new"
    return None, None
