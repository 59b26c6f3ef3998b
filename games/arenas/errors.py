"""Arena refusals: each a stable code and status (sentences in other languages: api.refusals)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError


class ArenaNotFound(ServiceError):
    """No such arena, or a private arena asked by anything but its link (a guessed number)."""

    code = "arena-not-found"
    status = 404
    message = _("There is no such arena.")


class ArenaOver(ServiceError):
    """Joining, or writing to an arena game, at or after the arena's end."""

    code = "arena-over"
    status = 409
    message = _("This arena is over: it takes no more players and no more moves.")
    #: The arena that ended, when a write to one of its games was refused (to settle it).
    arena_id: int | None = None


class ArenaNotStarted(ServiceError):
    """Asking for the seat's game before the arena starts."""

    code = "arena-not-started"
    status = 409
    message = _("This arena has not started yet: your first deal comes at its start.")


class AlreadyJoined(ServiceError):
    """A second join of the same arena (two at once included): one seat per player."""

    code = "arena-already-joined"
    status = 409
    message = _("You already have a seat in this arena.")


class InAnotherArena(ServiceError):
    """A player holds a seat in one arena not yet over at a time."""

    code = "in-another-arena"
    status = 409
    message = _("You already have a seat in another arena that is not over yet.")


class NotSeated(ServiceError):
    code = "not-in-arena"
    status = 409
    message = _("You have no seat in this arena: join it first.")


class SequenceDone(ServiceError):
    """Every deal of the arena's sequence has been played."""

    code = "arena-deals-done"
    status = 409
    message = _("You have played every deal of this arena.")


class AlreadyStarted(ServiceError):
    """ "Without undo" is chosen before the game's first move, never after."""

    code = "game-already-started"
    status = 409
    message = _("Playing without undo is chosen before the game's first move.")


class UndoOff(ServiceError):
    """An undo in an arena game its player chose to play without undo."""

    code = "undo-off"
    status = 409
    message = _("You chose to play this game without undo.")


class NoAssistsInArenas(ServiceError):
    """A hint or a winnability check on an arena game."""

    code = "no-assists-in-arenas"
    status = 403
    message = _("Hints and winnability checks are off in arena games.")


class ArenaInProgress(ServiceError):
    """An arena game's board, log or analysis while its arena runs (the players share deals)."""

    code = "arena-in-progress"
    status = 403
    message = _("Arena games, their replays and analyses open once the arena is over.")


class BadStart(ServiceError):
    """A player's arena that would start in the past or more than 7 days ahead."""

    code = "bad-arena-start"
    status = 400
    message = _("An arena starts now or within the next 7 days.")
