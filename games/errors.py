"""Service-level refusals: who may write, and whether the client saw the latest version.

Rule refusals come from the engine (`games.engine.IllegalMoveError`); these
cover what the engine cannot know: ownership, versions, finished games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError as ServiceError  # the base, re-exported for callers

if TYPE_CHECKING:
    from games.public import GameState


class GameNotFound(ServiceError):
    code = "game-not-found"
    status = 404
    message = _("There is no such game.")


class NotYourGame(ServiceError):
    code = "not-your-game"
    status = 403
    message = _("This game belongs to another player.")


class StaleVersion(ServiceError):
    """The client wrote against an old version; it gets the current state to catch up."""

    code = "stale-version"
    status = 409
    message = _("This game changed elsewhere: here is the table as it is now.")

    def __init__(self, message: str, state: GameState) -> None:
        super().__init__(message)
        self.state = state

    def details(self) -> dict[str, object]:
        return {"state": self.state}


class GameFinished(ServiceError):
    """Writes to an abandoned game, or abandoning or finishing a game that already ended."""

    code = "game-finished"
    status = 409
    message = _("This game is over: start a new game.")


class RuleMismatch(ServiceError):
    code = "rule-mismatch"
    status = 400
    message = _("The deal code and the chosen rule do not match.")


class GameNotFinished(ServiceError):
    """A retry from a game still being played (play it on, or finish it first)."""

    code = "game-not-finished"
    status = 409
    message = _("This game is still being played: a retry starts from a finished game.")


class NoSuchVersion(ServiceError):
    """A version the game's log never reached."""

    code = "no-such-version"
    status = 400
    message = _("The game has no such version.")


class NothingLeftToPlay(ServiceError):
    """A retry from a position with no move left (every card home, or none that plays): it
    would be an active game nobody can move, finish or resign into anything."""

    code = "nothing-left-to-play"
    status = 409
    message = _("There is no move left to play from this position: retry from an earlier one.")


class CardsFaceDown(ServiceError):
    """Finish asked while a card is face down (the way home would depend on hidden cards)."""

    code = "cards-face-down"
    status = 409
    message = _(
        "Finish plays the last cards home once every card is face up: turn the rest up first."
    )


class FinishBlocked(ServiceError):
    """Every card is face up, but the finish's search found no line carrying them all home
    (games.engine.finish): the table is blocked, or its way home is beyond the budget."""

    code = "finish-blocked"
    status = 409
    message = _("Finish finds no way to bring every card home from here: play on by hand, or undo.")
