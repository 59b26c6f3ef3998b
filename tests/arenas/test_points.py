"""The points rule as a table: each row a seat's games in order and the score they make."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.arenas.points import Played, score, sort_key

W = Played(won=True, moves=90, cards=52)
W_NO_UNDO = Played(won=True, moves=90, cards=52, without_undo=True)
NEAR = Played(won=False, moves=60, cards=26)  # 26 cards home: a near win
SHORT_OF = Played(won=False, moves=60, cards=25)
QUICK_RESIGN = Played(won=False, moves=4, cards=0)
RESIGN_AT_5 = Played(won=False, moves=5, cards=3)


@pytest.mark.parametrize(
    ("games", "each", "points", "wins", "in_a_row"),
    [
        ([], (), 0, 0, 0),
        ([W], (2,), 2, 1, 1),
        ([W, W], (2, 2), 4, 2, 2),
        ([W, W, W], (2, 2, 4), 8, 3, 3),  # two wins in a row start the streak
        ([W, W, W, W, W], (2, 2, 4, 4, 4), 16, 5, 5),
        ([W, W, NEAR, W], (2, 2, 1, 2), 7, 3, 1),  # a game not won ends the streak
        ([W, W, W, SHORT_OF, W, W, W], (2, 2, 4, 0, 2, 2, 4), 16, 6, 3),
        ([NEAR], (1,), 1, 0, 0),
        ([SHORT_OF], (0,), 0, 0, 0),
        ([QUICK_RESIGN], (0,), 0, 0, 0),
        ([RESIGN_AT_5], (0,), 0, 0, 0),
        ([Played(won=False, moves=4, cards=26)], (0,), 0, 0, 0),  # resigned before 5 moves
        ([W, W, QUICK_RESIGN, W], (2, 2, 0, 2), 6, 3, 1),  # a quick resignation ends it too
        ([W_NO_UNDO], (3,), 3, 1, 1),
        ([W, W, W_NO_UNDO], (2, 2, 5), 9, 3, 3),  # the bonus on a streak win
        ([Played(won=False, moves=60, cards=30, without_undo=True)], (1,), 1, 0, 0),
    ],
)
def test_points_table(
    games: list[Played], each: tuple[int, ...], points: int, wins: int, in_a_row: int
) -> None:
    result = score(games)

    assert (result.each, result.points, result.wins, result.in_a_row) == (
        each,
        points,
        wins,
        in_a_row,
    )


def test_the_flame_burns_from_two_wins_in_a_row() -> None:
    assert not score([W]).on_streak
    assert score([W, W]).on_streak
    assert not score([W, W, NEAR]).on_streak


def test_total_time_adds_every_ended_game() -> None:
    games = [
        Played(won=True, moves=90, cards=52, time=timedelta(minutes=3)),
        Played(won=False, moves=30, cards=10, time=timedelta(minutes=2)),
    ]

    assert score(games).time == timedelta(minutes=5)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ((9, 1, timedelta(minutes=30)), (8, 4, timedelta(minutes=1))),  # points first
        ((8, 3, timedelta(minutes=30)), (8, 2, timedelta(minutes=1))),  # then more wins
        ((8, 3, timedelta(minutes=10)), (8, 3, timedelta(minutes=11))),  # then less time
    ],
)
def test_ties_break_on_wins_then_time(
    better: tuple[int, int, timedelta], worse: tuple[int, int, timedelta]
) -> None:
    assert sort_key(*better) < sort_key(*worse)
