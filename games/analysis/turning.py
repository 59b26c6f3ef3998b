"""Where the win was lost: the last winnable position of a game that ended lost, and the move
that lost it, found by a search over the log rather than by solving every position.

A move out of an unwinnable position only reaches unwinnable ones, so where the log only
moves forward (after its last undo) the positions are winnable up to some move and lost
from there on: a binary search finds that move with a handful of solves. Each solve may
run out of budget ("unknown"); it is then asked again with a larger one, and the
positions next to the transition start with a larger one, so an "unknown" does not hide
the turning point. The verdicts learned are the analysis's own (`LogPositions`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.analysis.positions import LogPositions

#: Budgets tried on a position still unknown: the base, then larger ones.
ESCALATION = (1, 4, 16)
#: An interval this short is near the transition: its positions start at the second budget.
NEAR = 2

#: Solve the position at a version within a number of solver positions (nodes).
type Solve = Callable[[int, int], None]


@dataclass(frozen=True)
class Turn:
    """The search's conclusion: `kind` is `lost` (with the losing move at `version`: its
    log entry, the position before it winnable, the one after lost), `never-winnable`,
    `not-lost` (won, or still winnable at the end) or `unknown` (a budget hid it)."""

    kind: str
    version: int | None = None


def find(positions: LogPositions, kinds: list[str], solve: Solve, budget: int) -> Turn:
    """The turning point of the game whose log `positions` holds (`kinds[v - 1]`: the kind
    of the entry that produced version v)."""

    def verdict(version: int, start: int = 0) -> str:
        for factor in ESCALATION[start:]:
            found = positions.finding(version)
            if found is not None and found.verdict != "unknown":
                return found.verdict
            solve(version, budget * factor)
        found = positions.finding(version)
        return found.verdict if found is not None else "unknown"

    last = positions.last_version
    end = verdict(last)
    if end != "unwinnable":
        return Turn("not-lost" if end == "winnable" else "unknown")
    if verdict(0) == "unwinnable":
        return Turn("never-winnable")
    # From the last undo on the log only moves forward: winnable, then lost for good.
    lo = max((v for v in range(1, last + 1) if kinds[v - 1] == "undo"), default=0)
    while verdict(lo) != "winnable":  # the undo went back into a lost position: earlier
        if lo == 0:
            return Turn("unknown")
        lo -= 1
    hi = last
    while hi - lo > 1:
        mid = (lo + hi) // 2
        found = verdict(mid, start=1 if hi - lo <= NEAR else 0)
        if found == "winnable":
            lo = mid
        elif found == "unwinnable":
            hi = mid
        else:  # unknown at every budget: close in from the lost end, one position at a time
            while hi - lo > 1:
                before = verdict(hi - 1, start=1)
                if before == "unwinnable":
                    hi -= 1
                elif before == "winnable":
                    lo = hi - 1
                else:
                    return Turn("unknown")
    if kinds[hi - 1] == "undo":
        return Turn("unknown")
    return Turn("lost", hi)
