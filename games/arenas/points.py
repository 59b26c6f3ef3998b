"""The points rule: one pure function from a seat's games, in order, to its score.

Kept apart from everything else (no database, no clock) so it can be tuned and table-tested
alone (tests/arenas/test_points.py; docs/arenas.md "Points" gives the examples).

- A win scores `WIN` (2). Two wins in a row start a streak: from the third win in a row on,
  each win scores `STREAK_WIN` (4), until a game is not won.
- A game played "without undo" (chosen before its first move) adds `NO_UNDO_BONUS` (1) to a win.
- A game not won scores `NEAR_WIN` (1) if at least `NEAR_WIN_CARDS` (26) cards reached the
  foundations, else 0; a game resigned before `SHORT_GAME_MOVES` (5) moves scores 0.
  Either way it ends the streak.
- Ties: more points, then more wins, then less total time (`sort_key`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

WIN = 2
STREAK_WIN = 4
NO_UNDO_BONUS = 1
NEAR_WIN = 1
NEAR_WIN_CARDS = 26
SHORT_GAME_MOVES = 5
#: Wins in a row after which the next win scores `STREAK_WIN`.
STREAK_AFTER = 2


@dataclass(frozen=True)
class Played:
    """One ended game of a seat, as the rule sees it."""

    won: bool
    cards: int = 0
    moves: int = 0
    without_undo: bool = False
    time: timedelta = timedelta(0)


@dataclass(frozen=True)
class Score:
    points: int
    wins: int
    #: Wins in a row at the end of the games (the page's flame burns from `STREAK_AFTER` on).
    in_a_row: int
    time: timedelta
    #: Each game's points, in order.
    each: tuple[int, ...]

    @property
    def on_streak(self) -> bool:
        """Whether the next win scores `STREAK_WIN`."""
        return self.in_a_row >= STREAK_AFTER


def game_points(game: Played, in_a_row: int) -> int:
    """One game's points, `in_a_row` wins in a row before it."""
    if game.won:
        base = STREAK_WIN if in_a_row >= STREAK_AFTER else WIN
        return base + (NO_UNDO_BONUS if game.without_undo else 0)
    if game.moves < SHORT_GAME_MOVES:
        return 0
    return NEAR_WIN if game.cards >= NEAR_WIN_CARDS else 0


def score(games: Iterable[Played]) -> Score:
    """The score of a seat's ended games, played in this order."""
    points = wins = in_a_row = 0
    time = timedelta(0)
    each: list[int] = []
    for game in games:
        earned = game_points(game, in_a_row)
        each.append(earned)
        points += earned
        time += game.time
        if game.won:
            wins += 1
            in_a_row += 1
        else:
            in_a_row = 0
    return Score(points, wins, in_a_row, time, tuple(each))


def sort_key(points: int, wins: int, time: timedelta) -> tuple[int, int, timedelta]:
    """The standings' order: more points, then more wins, then less total time."""
    return (-points, -wins, time)
