"""A player's ranked attempts still ahead or in play: what `dealing` and `solver_help` wait for.

A ranked attempt is the first attempt of the day at a daily deal (each rule's), and a race
game. Until it has ended its player may neither see the deal's cards elsewhere nor get the
solver's help on the deal.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from accounts.guests import is_guest
from games import daily, days
from games.engine import GameCode
from games.models import Game


def racing(player: User | AnonymousUser, code: str) -> bool:
    """Whether `player` races the deal `code` right now (a racer who resigned included)."""
    return (
        player.is_authenticated
        and Game.objects.filter(owner_id=player.pk, code=code, race_hidden=True).exists()
    )


def daily_attempt_pending(player: User | AnonymousUser, code: str) -> bool:
    """Whether `code` is a daily deal still running whose ranked attempt `player` has ahead
    of them (not started yet) or in play. Guests, whose attempts are never ranked, have none."""
    if not player.is_authenticated or is_guest(player):
        return False
    parsed = GameCode.parse(code)
    deal = daily.stored_deal(days.today(), parsed.rule)
    if deal is None or deal.number != parsed.number:
        return False
    attempts = daily.attempts(player, deal.date, parsed.rule)
    if not attempts:
        return True  # their first attempt would be the ranked one
    return any(game.ranked and game.status == Game.Status.ACTIVE for game in attempts)
