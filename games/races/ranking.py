"""A finished race's places: the rule a player would call fair (docs/api.md, "Places").

1. Whoever won the deal comes first (only one can: the first win ends the race).
2. Then everyone who played on to the end, by progress.
3. Then everyone who resigned or forfeited, by progress: leaving the race never ranks above
   staying in it.
4. Last, everyone who never made a move, whatever their state: in a race shorter than the
   grace period a racer who never connects cannot forfeit, and doing nothing must not rank
   above playing and then leaving.

Progress is cards on the foundations, then face-down cards uncovered (fewer left is better).
Moves never count: "fewer moves" would reward not playing. Racers whose progress is the
same within a group share a place (1, 2, 2, 4): a real tie is a tie, in the places and in
the ratings (openskill rates equal ranks alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

#: A racer's place group: the winner, those who played on, those who left, those who never played.
WON, PLAYED_ON, LEFT, NEVER_PLAYED = 0, 1, 2, 3
_GROUP = {"won": WON, "resigned": LEFT, "forfeited": LEFT}


class Standing(Protocol):
    """What ranking reads of a racer."""

    @property
    def state(self) -> str: ...

    @property
    def cards_on_foundations(self) -> int: ...

    @property
    def face_down(self) -> int: ...

    @property
    def moves(self) -> int: ...


def rank_key(racer: Standing) -> tuple[int, int, int]:
    """Smaller is better; equal keys are a tie."""
    group = NEVER_PLAYED if racer.moves == 0 else _GROUP.get(str(racer.state), PLAYED_ON)
    return (group, -racer.cards_on_foundations, racer.face_down)


def places(racers: Sequence[Standing]) -> list[int]:
    """Each racer's place, in the order given: one more than the racers strictly ahead."""
    keys = [rank_key(racer) for racer in racers]
    return [1 + sum(other < key for other in keys) for key in keys]
