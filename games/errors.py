"""Service-level refusals: who may write, and whether the client saw the latest version.

Rule refusals come from the engine (`games.engine.IllegalMoveError`); these
cover what the engine cannot know: ownership, versions, finished games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ops.errors import ServiceError as ServiceError  # the base, re-exported for callers

if TYPE_CHECKING:
    from games.public import GameState


class GameNotFound(ServiceError):
    code = "game-not-found"
    status = 404


class NotYourGame(ServiceError):
    code = "not-your-game"
    status = 403


class StaleVersion(ServiceError):
    """The client wrote against an old version; it gets the current state to catch up."""

    code = "stale-version"
    status = 409

    def __init__(self, message: str, state: GameState) -> None:
        super().__init__(message)
        self.state = state

    def details(self) -> dict[str, object]:
        return {"state": self.state}


class GameFinished(ServiceError):
    """Writes to an abandoned game, or abandoning a game that already ended."""

    code = "game-finished"
    status = 409


class RuleMismatch(ServiceError):
    code = "rule-mismatch"
    status = 400
