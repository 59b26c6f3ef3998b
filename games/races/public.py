"""The public form of a race: what racers, watchers and the race feed see.

While a race runs it names no card and no deal code: each racer shows only counts
(cards on foundations, face-down cards left, moves), elapsed time and a state.
Game ids open with the code once the race is over; a racer learns their own from
`viewer_part` (REST only, never pushed to the group).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict

from games.fairness.visibility import race_code, racer_game
from games.races.models import Race, Racer
from games.races.ratings import unrated_reason

#: A racer whose last sign of life (socket heartbeat, move) is older than this shows as
#: disconnected; the race's grace period decides the forfeit.
PRESENCE_SECONDS = 15


class RacerProgress(TypedDict):
    player: str
    guest: bool
    seat: int
    ready: bool
    state: str
    cards_on_foundations: int
    face_down: int
    moves: int
    elapsed_seconds: float
    finished_at: str | None
    place: int | None
    rating_before: float | None
    rating_after: float | None
    game: int | None


class RaceState(TypedDict):
    room: str
    rule: str
    status: str
    version: int
    private: bool
    quick: bool
    rated: bool
    unrated_reason: str | None
    creator: str
    max_players: int
    time_limit_seconds: int
    grace_seconds: int
    created_at: str
    starts_at: str | None
    ends_at: str | None
    finished_at: str | None
    end_reason: str
    server_now: str
    code: str | None
    rematch: str | None
    waiting_for: list[str]
    racers: list[RacerProgress]


class ViewerPart(TypedDict):
    seat: int
    state: str
    game: int | None


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def shown_state(racer: Racer) -> str:
    """The racer's state as told: a playing racer without a live socket is `disconnected`."""
    if racer.state == Racer.State.PLAYING and not racer.connected:
        return "disconnected"
    return str(racer.state)


def elapsed(race: Race, racer: Racer, now: datetime) -> timedelta:
    """Server time since the start, to the racer's end (or the race's, or now)."""
    if race.starts_at is None or now < race.starts_at:
        return timedelta(0)
    end = racer.finished_at or race.finished_at or now
    return max(end - race.starts_at, timedelta(0))


def racer_progress(race: Race, racer: Racer, now: datetime) -> RacerProgress:
    return {
        "player": racer.player.get_username(),
        "guest": racer.guest,
        "seat": racer.seat,
        "ready": racer.ready,
        "state": shown_state(racer),
        "cards_on_foundations": racer.cards_on_foundations,
        "face_down": racer.face_down,
        "moves": racer.moves,
        "elapsed_seconds": round(elapsed(race, racer, now).total_seconds(), 3),
        "finished_at": _iso(racer.finished_at),
        "place": racer.place,
        "rating_before": racer.rating_before,
        "rating_after": racer.rating_after,
        "game": racer_game(race, racer),
    }


def race_state(race: Race, racers: list[Racer], now: datetime) -> RaceState:
    rematch = getattr(race, "rematch", None) if race.is_over else None
    unrated = unrated_reason(race, racers)
    return {
        "room": race.room,
        "rule": race.rule,
        "status": race.status,
        "version": race.version,
        "private": race.private,
        "quick": race.quick,
        "rated": unrated is None,
        "unrated_reason": unrated,
        "creator": race.creator.get_username(),
        "max_players": race.max_players,
        "time_limit_seconds": int(race.time_limit.total_seconds()),
        "grace_seconds": int(race.grace.total_seconds()),
        "created_at": race.created_at.isoformat(),
        "starts_at": _iso(race.starts_at),
        "ends_at": _iso(race.ends_at),
        "finished_at": _iso(race.finished_at),
        "end_reason": race.end_reason,
        "server_now": now.isoformat(),
        "code": race_code(race),
        "rematch": rematch.room if rematch is not None else None,
        "waiting_for": list(race.waiting_for) if race.status == Race.Status.OPEN else [],
        "racers": [racer_progress(race, racer, now) for racer in racers],
    }


def viewer_part(racers: list[Racer], viewer_id: int | None) -> ViewerPart | None:
    """The viewer's own seat and game (the game id of a running race is theirs alone)."""
    for racer in racers:
        if racer.player_id == viewer_id:
            return {"seat": racer.seat, "state": shown_state(racer), "game": racer.game_id}
    return None
