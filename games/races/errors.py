"""Race refusals: each a stable code and status (sentences in other languages: api.refusals)."""

from __future__ import annotations

from ops.errors import ServiceError


class RaceNotFound(ServiceError):
    code = "race-not-found"
    status = 404


class AlreadyRacing(ServiceError):
    """A player races (or waits in the quick match queue for) one race at a time."""

    code = "already-racing"
    status = 409


class RaceStarted(ServiceError):
    """Joining a race whose countdown began, or that runs or ended."""

    code = "race-started"
    status = 409


class RaceFull(ServiceError):
    code = "race-full"
    status = 409


class AlreadyReady(ServiceError):
    code = "already-ready"
    status = 409


class NotARacer(ServiceError):
    code = "not-a-racer"
    status = 403


class NotRaceCreator(ServiceError):
    code = "not-race-creator"
    status = 403


class TooFewRacers(ServiceError):
    code = "too-few-racers"
    status = 409


class RaceCountingDown(ServiceError):
    """Leaving once the countdown runs: the others were promised this field."""

    code = "race-counting-down"
    status = 409


class RaceRunning(ServiceError):
    """Leaving a running race: resigning the race game is the way out."""

    code = "race-running"
    status = 409


class RaceOver(ServiceError):
    """A write to a race game after its race ended (won, time limit, everyone done)."""

    code = "race-over"
    status = 409


class RaceNotOver(ServiceError):
    code = "race-not-over"
    status = 409


class NoAssistsInRaces(ServiceError):
    """Hints and winnability read the face-down cards of a deal other racers share."""

    code = "race-no-assists"
    status = 403


class CodeNeedsPrivateRoom(ServiceError):
    """A chosen deal code is for private rooms; an open room always gets a random deal."""

    code = "code-needs-private-room"
    status = 400
