"""The game clock: time at the table, not time since the deal.

A game's clock counts from its first move while its table is open and played, and stops
while the game is parked (its table left, hidden or closed). It is kept on the server:
each sign of life from the player (a move, an undo, an assist's move, or a `resume` the
table sends when it opens and every minute while it stays in sight) adds the time since
the previous one, and `park` (the table left) stops it. A client that vanishes without
saying goodbye costs at most `IDLE_CAP`: a longer gap between two signs of life counts as
`IDLE_CAP`, so a closed laptop never runs the clock for hours.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

#: The most a gap between two signs of life adds to the clock (docs/api.md, the rules page).
IDLE_CAP: Final = timedelta(minutes=3)


def counted(last_sign: datetime, now: datetime) -> timedelta:
    """What the time from the clock's last sign of life to `now` adds: at most IDLE_CAP."""
    return min(max(now - last_sign, timedelta(0)), IDLE_CAP)
