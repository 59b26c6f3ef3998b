"""May this player be dealt this deal's cards? Not today's daily deal, outside the ranked
attempt, until that attempt has ended.

A second attempt (practice), a retry, a game typed from the code: each shows the deal's
cards, and face-down cards turned up in practice make the ranked attempt a rehearsed one
(fewest moves and fastest time would reward rehearsal). So until the player's ranked
attempt of today's daily has ended (or before it starts: their first attempt is the ranked
one), no game of that deal is started for them but the ranked attempt itself. Guests, whose
attempts are never ranked, are not held back. docs/fair-play.md states the rule.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.fairness import attempts


class RankedAttemptPending(ServiceError):
    """A game of today's daily deal asked while the player's ranked attempt is ahead or in play."""

    code = "ranked-attempt-pending"
    status = 409
    message = _(
        "Today's daily deal shows its cards only in your ranked attempt until that attempt "
        "has ended: finish or resign it first."
    )


def may_deal(player: User | AnonymousUser, code: str) -> bool:
    """Whether a game of `code` other than the ranked attempt may be dealt to `player` now."""
    return not attempts.daily_attempt_pending(player, code)


def ensure_may_deal(player: User, code: str) -> None:
    """Refuse a game of `code` other than the ranked attempt while that attempt is pending."""
    if not may_deal(player, code):
        raise RankedAttemptPending(
            "This deal is today's daily deal and your ranked attempt of it has not ended: "
            "no other game of it until it has."
        )
