"""May this player get help here? The solver's help on a deal while its player has a ranked
attempt of that deal ahead or in play.

Help is anything the solver tells about a deal: a hint, "can this still be won?", a game's
analysis, a puzzle mined from a game. A player whose ranked attempt of a deal is still
ahead or in play gets none of it on any game of that deal (someone else's finished game, a
game left from before `dealing` refused rehearsals), because the help would carry straight
into the ranked attempt:

- today's daily deal (each rule's), until the player's ranked attempt of it has ended,
  or before it starts (their first attempt of the day is the ranked one);
- a deal the player is racing, until the race ends (a racer who resigned included);
- a deal of an arena the player plays, until the arena ends (its games are `race_hidden`
  like a race's, so `attempts.racing` holds them back too); an arena game itself never
  gets a hint or a winnability check, even after the arena (its points are kept).

The ranked daily game itself may still ask: that marks it assisted, as always. Guests,
whose daily attempts are never ranked, are not held back. docs/api.md, "Help and ranked
attempts", and docs/fair-play.md state the rule for clients.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext_lazy as _

from games import days
from games.arenas.errors import NoAssistsInArenas
from games.errors import ServiceError
from games.fairness import attempts
from games.models import Game
from games.races.errors import NoAssistsInRaces


class DealInPlay(ServiceError):
    """Help asked on a deal whose ranked attempt (a daily, a race) the player has in play."""

    code = "deal-in-play"
    status = 409
    message = _(
        "You have a ranked attempt of this deal in play (today's daily or a race): the "
        "solver's help on it opens once that attempt ends."
    )


def ensure_help_allowed(player: User | AnonymousUser, game: Game) -> None:
    """Refuse the solver's help on `game` to `player` while it would help a ranked attempt."""
    if not player.is_authenticated:
        return  # nobody's ranked attempt
    if game.owner_id == player.pk and game.ranked and days.is_open(game.daily_date):
        return  # the ranked attempt itself: asking marks it assisted
    if attempts.racing(player, game.code):
        raise DealInPlay(
            f"You are racing the deal {game.code}: the solver's help on it opens when the "
            "race ends."
        )
    if attempts.daily_attempt_pending(player, game.code):
        raise DealInPlay(
            "This is today's daily deal and your ranked attempt of it is not over: the "
            "solver's help on it opens once that attempt ends."
        )


def ensure_assist_allowed(player: User, game: Game) -> None:
    """A hint or a winnability check on the player's own active game: never while it races
    (its deal is the race's), never in an arena game, and as `ensure_help_allowed` says."""
    if game.origin == Game.Origin.ARENA:
        raise NoAssistsInArenas(f"Game {game.pk} plays in an arena: hints and winnability are off.")
    if game.race_hidden:
        raise NoAssistsInRaces(f"Game {game.pk} is racing: hints and winnability are off.")
    ensure_help_allowed(player, game)


def help_allowed(player: User | AnonymousUser, game: Game) -> bool:
    """`ensure_help_allowed` as a yes or no (for what is left out rather than refused)."""
    try:
        ensure_help_allowed(player, game)
    except DealInPlay:
        return False
    return True
