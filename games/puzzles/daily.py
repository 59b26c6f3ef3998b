"""The daily puzzle: one per UTC day, the same for everybody, chosen on the day's first ask.

The choice (docs/puzzles.md, "The daily puzzle"): among the puzzles anyone may see
(games.fairness.visibility.puzzles_open_to_anyone: the server's self-play) with at least
`PUBLIC_PLAUSIBLE` plausible moves (no coin flip) that were never a day's puzzle and that
nobody has tried yet, the one with the fewest face-down cards (the least hidden), ties
broken by a keyed hash of the day (HMAC-SHA256 with the deal key), so nobody can tell
tomorrow's puzzle from the pool. When every such puzzle was used, one never a day's puzzle;
then the one whose last day is longest ago. It is stored (`DailyPuzzle`), so the day's
puzzle never changes.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

from django.db.models import Max, QuerySet

from games import deals
from games.fairness import visibility
from games.puzzles.errors import NoDailyPuzzle
from games.puzzles.models import DailyPuzzle, Puzzle
from games.puzzles.proof import PUBLIC_PLAUSIBLE

#: Bump only with care: it changes which of equal candidates each future day takes.
TIE_FORMAT = "yukon-puzzle-v1:{day}:{puzzle}"
#: Candidates with the fewest face-down cards read for the keyed tie-break.
CANDIDATES = 64


def _keyed(day: date, puzzle_id: int) -> bytes:
    text = TIE_FORMAT.format(day=day.isoformat(), puzzle=puzzle_id)
    return hmac.new(deals.deal_key(), text.encode(), hashlib.sha256).digest()


def _pick(day: date, pool: QuerySet[Puzzle]) -> Puzzle | None:
    candidates = list(pool.order_by("face_down", "pk")[:CANDIDATES])
    if not candidates:
        return None
    fewest = candidates[0].face_down
    return min(
        (puzzle for puzzle in candidates if puzzle.face_down == fewest),
        key=lambda puzzle: _keyed(day, puzzle.pk),
    )


def daily_pool() -> QuerySet[Puzzle]:
    """Every puzzle that may be a day's puzzle."""
    return Puzzle.objects.filter(
        visibility.puzzles_open_to_anyone(), plausible_moves__gte=PUBLIC_PLAUSIBLE
    )


def choose(day: date) -> Puzzle:
    """The best candidate for `day` (see the module docstring); NoDailyPuzzle when none."""
    pool = daily_pool()
    unused = pool.filter(days__isnull=True)
    chosen = _pick(day, unused.filter(tries__isnull=True)) or _pick(day, unused)
    if chosen is None:
        chosen = pool.annotate(last_day=Max("days__date")).order_by("last_day", "pk").first()
    if chosen is None:
        raise NoDailyPuzzle("No puzzle has been found yet: there is none to choose from.")
    return chosen


def puzzle_of(day: date) -> Puzzle:
    """The puzzle of `day`, chosen and stored on the day's first ask."""
    row = DailyPuzzle.objects.select_related("puzzle").filter(date=day).first()
    if row is None:
        row, _ = DailyPuzzle.objects.select_related("puzzle").get_or_create(
            date=day, defaults={"puzzle": choose(day)}
        )
    return row.puzzle


def stored_puzzle_id(day: date) -> int | None:
    """The puzzle of `day` if it was already chosen (no choice is made here)."""
    return DailyPuzzle.objects.filter(date=day).values_list("puzzle_id", flat=True).first()
