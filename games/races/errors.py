"""Race refusals: each a stable code and status (sentences in other languages: api.refusals)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ops.errors import ServiceError


class RaceNotFound(ServiceError):
    code = "race-not-found"
    status = 404
    message = _("There is no such race.")


class AlreadyRacing(ServiceError):
    """A player races (or waits in the quick match queue for) one race at a time."""

    code = "already-racing"
    status = 409
    message = _("You are already in a race or waiting for a quick match.")


class RaceStarted(ServiceError):
    """Joining a race whose countdown began, or that runs or ended."""

    code = "race-started"
    status = 409
    message = _("This race has started: it takes no more players.")


class RaceFull(ServiceError):
    code = "race-full"
    status = 409
    message = _("This race is full.")


class AlreadyReady(ServiceError):
    code = "already-ready"
    status = 409
    message = _("You are ready already.")


class NotARacer(ServiceError):
    code = "not-a-racer"
    status = 403
    message = _("You are not racing in this race.")


class NotRaceCreator(ServiceError):
    code = "not-race-creator"
    status = 403
    message = _("Only the race's creator can start it.")


class TooFewRacers(ServiceError):
    code = "too-few-racers"
    status = 409
    message = _("A race needs two players at least.")


class RaceCountingDown(ServiceError):
    """Leaving once the countdown runs: the others were promised this field."""

    code = "race-counting-down"
    status = 409
    message = _("The countdown has begun: you can resign once the race starts.")


class RaceRunning(ServiceError):
    """Leaving a running race: resigning the race game is the way out."""

    code = "race-running"
    status = 409
    message = _("The race is running: resign your game to leave it.")


class RaceOver(ServiceError):
    """A write to a race game after its race ended (won, time limit, everyone done)."""

    code = "race-over"
    status = 409
    message = _("This race is over: its games take no more moves.")


class RaceNotOver(ServiceError):
    code = "race-not-over"
    status = 409
    message = _("This race is not over yet.")


class NoAssistsInRaces(ServiceError):
    """Hints and winnability read the face-down cards of a deal other racers share."""

    code = "race-no-assists"
    status = 403
    message = _("Hints and winnability are off during a race.")


class CodeNeedsPrivateRoom(ServiceError):
    """A chosen deal code is for private rooms; an open room always gets a random deal."""

    code = "code-needs-private-room"
    status = 400
    message = _("A chosen deal code needs a private room.")
