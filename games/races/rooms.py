"""Race rooms: create, join (by link or room code), ready, start, leave, rematch, read.

Each write is one transaction on the locked race row (after settling its timers).
A player is active in one race at a time (`racer_one_active_race`) and not also in
the quick match queue.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.guests import is_guest
from games.engine import CLASSIC, RULES, GameCode
from games.errors import RuleMismatch
from games.fairness import dealing
from games.races import lifecycle
from games.races.errors import (
    AlreadyRacing,
    AlreadyReady,
    CodeNeedsPrivateRoom,
    NotARacer,
    NotRaceCreator,
    RaceCountingDown,
    RaceFull,
    RaceNotFound,
    RaceNotOver,
    RaceRunning,
    RaceStarted,
    TooFewRacers,
)
from games.races.models import QueueEntry, Race, Racer
from games.races.public import RaceState, ViewerPart, race_state, viewer_part

#: Room codes: no 0/O, 1/I/L, so a code read aloud is typed right.
ROOM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_LENGTH = 6
MAX_PLAYERS = 8


@dataclass(frozen=True)
class View:
    """A race as one viewer reads it: the public state plus their own seat and game."""

    state: RaceState
    me: ViewerPart | None

    def to_dict(self) -> dict[str, object]:
        return {**self.state, "me": self.me}


def _new_room() -> str:
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_LENGTH))


def _race_id(room: str) -> int:
    found = Race.objects.filter(room=room.upper()).values_list("pk", flat=True).first()
    if found is None:
        raise RaceNotFound(f"There is no race {room!r}.")
    return found


def view(race: Race, viewer: User | None, now: datetime | None = None) -> View:
    racers = lifecycle.racers_of(race)
    moment = now or timezone.now()
    return View(race_state(race, racers, moment), viewer_part(racers, getattr(viewer, "pk", None)))


def read(room: str, viewer: User | None) -> View:
    race_id = _race_id(room)
    lifecycle.settle(race_id)
    race = Race.objects.select_related("creator", "rematch").get(pk=race_id)
    return view(race, viewer)


def open_rooms(limit: int = 50) -> list[RaceState]:
    """The lobby: public rooms still taking players, newest first."""
    now = timezone.now()
    races = Race.objects.filter(status=Race.Status.OPEN, private=False).select_related("creator")
    return [race_state(race, lifecycle.racers_of(race), now) for race in races[:limit]]


def hold(player: User) -> None:
    """Lock the player's row for the transaction: joining a room and entering the quick match
    queue both take it first, so two requests at the same moment run one after the other and
    the second sees the first's seat or queue entry."""
    User.objects.select_for_update().filter(pk=player.pk).values_list("pk").first()


def ensure_free(player: User) -> None:
    if Racer.objects.filter(player=player, active=True).exists():
        raise AlreadyRacing("You are already in a race: finish or leave it first.")
    if QueueEntry.objects.filter(player=player).exists():
        raise AlreadyRacing("You are waiting for a quick match: cancel it first.")


def seat(race: Race, player: User, *, ready: bool = False) -> Racer:
    """Add `player` to `race` (locked by the caller); the constraint backs the one-race check.
    A seat on today's daily deal waits for the player's ranked attempt (games.fairness)."""
    hold(player)
    ensure_free(player)
    dealing.ensure_may_deal(player, race.code)
    taken = race.racers.count()
    if taken >= race.max_players:
        raise RaceFull(f"Race {race.room} is full ({race.max_players} players).")
    try:
        with transaction.atomic():
            return Racer.objects.create(
                race=race, player=player, seat=taken + 1, ready=ready, guest=is_guest(player)
            )
    except IntegrityError:
        raise AlreadyRacing("You are already in a race: finish or leave it first.") from None


def _deal(rule: str | None, code: str | None) -> GameCode:
    if code:
        game_code = GameCode.parse(code)
        if rule and rule.upper() != game_code.rule.letter:
            raise RuleMismatch(
                f"The code {game_code} is a {game_code.rule.name} deal but rule {rule!r} was asked."
            )
        return game_code
    return GameCode.random(RULES[rule.upper()] if rule else CLASSIC)


def new_race(
    creator: User,
    *,
    rule: str | None = None,
    code: str | None = None,
    private: bool = False,
    quick: bool = False,
    time_limit_minutes: int = 15,
    max_players: int = MAX_PLAYERS,
    rematch_of: Race | None = None,
) -> Race:
    """A room with its creator seated (the caller's transaction)."""
    if code and not private:
        raise CodeNeedsPrivateRoom("A chosen deal code needs a private room.")
    game_code = _deal(rule, code)
    for _ in range(5):
        try:
            with transaction.atomic():
                race = Race.objects.create(
                    room=_new_room(),
                    rule=game_code.rule.letter,
                    code=str(game_code),
                    private=private,
                    quick=quick,
                    rated=not code,
                    creator=creator,
                    time_limit=timedelta(minutes=time_limit_minutes),
                    max_players=max_players,
                    rematch_of=rematch_of,
                )
            break
        except IntegrityError:  # a room code taken (or a rematch made meanwhile)
            if rematch_of is not None:
                raise
    else:
        raise RuntimeError("no free room code in five tries")
    return race


def create(creator: User, **options: object) -> View:
    with transaction.atomic():
        ensure_free(creator)
        race = new_race(creator, **options)  # type: ignore[arg-type]
        seat(race, creator)
        lifecycle.publish_state(race, lifecycle.racers_of(race), timezone.now())
    return view(race, creator)


def _write_locked(room: str) -> Race:
    race_id = _race_id(room)
    lifecycle.settle(race_id)
    return lifecycle.locked(race_id)


def _racer(race: Race, player: User) -> Racer:
    racer = race.racers.filter(player=player).first()
    if racer is None:
        raise NotARacer(f"You are not racing in {race.room}.")
    return racer


def _changed(race: Race, now: datetime) -> None:
    racers = lifecycle.racers_of(race)
    if not lifecycle.start_if_ready(race, racers, now):
        lifecycle.bump(race)
        lifecycle.publish_state(race, racers, now)


def join(player: User, room: str) -> View:
    with transaction.atomic():
        race = _write_locked(room)
        if race.racers.filter(player=player).exists():
            return view(race, player)  # joining twice is joining once
        if race.status != Race.Status.OPEN:
            raise RaceStarted(f"Race {race.room} has started: it takes no more players.")
        seat(race, player)
        _changed(race, timezone.now())
    return view(race, player)


def ready(player: User, room: str) -> View:
    with transaction.atomic():
        race = _write_locked(room)
        racer = _racer(race, player)
        if race.status != Race.Status.OPEN:
            raise RaceStarted(f"Race {race.room} has started already.")
        if racer.ready:
            raise AlreadyReady("You are ready already.")
        racer.ready = True
        racer.save(update_fields=["ready"])
        _changed(race, timezone.now())
    return view(race, player)


def start(player: User, room: str) -> View:
    """The creator starts the countdown with whoever has joined (two at least)."""
    with transaction.atomic():
        race = _write_locked(room)
        _racer(race, player)
        if race.creator_id != player.pk:
            raise NotRaceCreator("Only the race's creator can start it.")
        if race.status != Race.Status.OPEN:
            raise RaceStarted(f"Race {race.room} has started already.")
        racers = lifecycle.racers_of(race)
        if len(racers) < lifecycle.MIN_PLAYERS:
            raise TooFewRacers("A race needs two players at least.")
        lifecycle.start_countdown(race, racers, timezone.now(), settings.RACE_COUNTDOWN_SECONDS)
    return view(race, player)


def leave(player: User, room: str) -> View:
    """Leave a room still taking players; refused once the countdown runs (resign instead)."""
    with transaction.atomic():
        race = _write_locked(room)
        racer = _racer(race, player)
        if race.status == Race.Status.COUNTDOWN:
            raise RaceCountingDown("The countdown has begun: you can resign once the race starts.")
        if race.status == Race.Status.RUNNING:
            raise RaceRunning("The race is running: resign your game to leave it.")
        if race.status == Race.Status.FINISHED:
            return view(race, player)
        racer.delete()
        now = timezone.now()
        rest = lifecycle.racers_of(race)
        if not rest:
            race.status, race.finished_at, race.end_reason = Race.Status.FINISHED, now, "empty"
            race.save(update_fields=["status", "finished_at", "end_reason"])
        elif race.creator_id == player.pk:
            race.creator = rest[0].player
            race.save(update_fields=["creator"])
        if rest:
            _changed(race, now)
        else:
            lifecycle.bump(race)
            lifecycle.publish_state(race, [], now)
    return view(race, player)


def rematch(player: User, room: str) -> View:
    """One click: the first asker opens the rematch room (same settings, a new deal), the
    others join it; each is ready at once. It starts once no previous racer still at the
    race's end is left to wait for (`lifecycle.rematch_waits_for`)."""
    with transaction.atomic():
        race = _write_locked(room)
        _racer(race, player)
        if race.status != Race.Status.FINISHED:
            raise RaceNotOver(f"Race {race.room} is not over yet.")
        following = Race.objects.filter(rematch_of=race).first()
        if following is None:
            ensure_free(player)
            following = new_race(
                player,
                rule=race.rule,
                private=race.private,
                quick=race.quick,
                time_limit_minutes=int(race.time_limit.total_seconds() // 60),
                max_players=race.max_players,
                rematch_of=race,
            )
            seat(following, player, ready=True)
            lifecycle.start_if_ready(following, lifecycle.racers_of(following), timezone.now())
            lifecycle.bump(race)
            lifecycle.publish_state(
                Race.objects.select_related("creator", "rematch").get(pk=race.pk),
                lifecycle.racers_of(race),
                timezone.now(),
            )
            lifecycle.publish_state(following, lifecycle.racers_of(following), timezone.now())
            return view(following, player)
    return join_ready(player, following.room)


def join_ready(player: User, room: str) -> View:
    """Join and be ready in one step (a rematch)."""
    with transaction.atomic():
        race = _write_locked(room)
        existing = race.racers.filter(player=player).first()
        if existing is not None and existing.ready:
            return view(race, player)
        if race.status != Race.Status.OPEN:
            raise RaceStarted(f"Race {race.room} has started: it takes no more players.")
        if existing is None:
            seat(race, player, ready=True)
        else:
            existing.ready = True
            existing.save(update_fields=["ready"])
        _changed(race, timezone.now())
    return view(race, player)


def touch(player_id: int, race_id: int, *, connected: bool) -> None:
    """A racer's socket opened, ticked or closed: their last sign of life and presence."""
    now = timezone.now()
    racers = Racer.objects.filter(race_id=race_id, player_id=player_id)
    if racers.filter(connected=connected).update(seen_at=now):
        return  # a heartbeat: no change of presence, no lock
    with transaction.atomic():
        race = lifecycle.locked(race_id)
        if not racers.update(connected=connected, seen_at=now):
            return
        lifecycle.settle_locked(race, now)
        if race.status in (Race.Status.OPEN, Race.Status.COUNTDOWN, Race.Status.RUNNING):
            lifecycle.bump(race)
            lifecycle.publish_state(race, lifecycle.racers_of(race), now)
    following = Race.objects.filter(rematch_of_id=race_id).values_list("pk", flat=True).first()
    if following is not None:  # a racer left the end screen: their rematch may stop waiting
        lifecycle.settle(following)
