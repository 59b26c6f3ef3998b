"""May anybody open an analysis board on this deal now? Not while the deal is in play for a
ranking anywhere.

A board turns up face-down cards freely and judges every move with the solver, so it would
hand the deal to anyone still to play it for a ranking, and to whoever they ask. It is
refused to every viewer (not only to those with an attempt ahead) while:

- the deal is today's daily deal, of any rule (a deal's cards do not depend on its rule), until
  its UTC day closes;
- a running race plays the deal (a racer who resigned included: `Game.race_hidden`);
- an arena not yet over, upcoming included, has the deal in its sequence (its deals are
  chosen when it is made, and a board before the start would be a rehearsal).

A game still being played opens a board only when it is practice (`opens_while_played`): a
board's verdicts on a game that counts would be help no ranking saw.

`ensure_board_open` is the one gate every board door asks, at opening and at every later
read of a position (a deal may become a daily, or be raced, after its board was opened); a
new kind of ranked play on a shared deal adds its clause to `deal_in_play`.
docs/fair-play.md states the rule.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import days
from games.arenas import clock
from games.arenas.models import Arena
from games.engine import GameCode
from games.errors import ServiceError
from games.models import DailyDeal, Game, VariantDailyDeal


class BoardDealInPlay(ServiceError):
    """A board on a deal that is played for a ranking right now (today's daily, a race, an
    arena)."""

    code = "board-deal-in-play"
    status = 409
    message = _(
        "This deal is being played for a ranking right now (today's daily deal, a race or an "
        "arena): "
        "its analysis board opens once that play is over."
    )


#: A game still being played opens a board only when it is practice: its result counts for
#: nothing and no ranking waits on it (a new origin stays out until it is argued in here).
PRACTICE_ORIGINS = frozenset({Game.Origin.RETRY, Game.Origin.DAILY_PRACTICE})


def opens_while_played(game: Game) -> bool:
    """Whether a board may open on `game` before it ends (its owner's practice game)."""
    return game.origin in PRACTICE_ORIGINS


def deal_in_play(code: str) -> str | None:
    """Why no board may show the deal `code` now (an English detail), or None when it may."""
    number = GameCode.parse(code).number
    today = days.today()
    if (
        DailyDeal.objects.filter(date=today, number=number).exists()
        or VariantDailyDeal.objects.filter(date=today, number=number).exists()
    ):
        return "This deal is today's daily deal: its boards open when the day closes."
    raced = Game.objects.filter(race_hidden=True).values_list("code", flat=True)
    if any(GameCode.parse(other).number == number for other in raced):
        return "A race is playing this deal: its boards open when the race ends."
    arena_deals = Arena.objects.filter(ends_at__gt=clock.now()).values_list("deals", flat=True)
    if any(GameCode.parse(other).number == number for codes in arena_deals for other in codes):
        return "An arena plays this deal: its boards open when the arena ends."
    return None


def ensure_board_open(code: str) -> None:
    """Refuse a board on `code` (empty: a position no game code reaches) while it is in play."""
    if not code:
        return
    reason = deal_in_play(code)
    if reason is not None:
        raise BoardDealInPlay(reason)
