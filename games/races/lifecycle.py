"""A race's life from stored server timestamps: countdown end, start, progress, the end.

Lock order, everywhere: the race row, then its racers' game rows. A move in a race
game (games.services) locks the race first too, so a win, a time limit and a forfeit
are decided one at a time, in commit order: two racers winning in the same
millisecond get first and (refused, race over) second, never a shared first place.

`settle` is called on every read and write of a race and by the websocket
processes' periodic tick, so whichever process comes first ends a countdown, a
time limit or a disconnected racer's grace; nothing waits in memory.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Min, Q
from django.utils import timezone

from games import deals, endings, events
from games.engine import GameCode, private_form
from games.models import Game
from games.public import GameState
from games.races import ranking, ratings
from games.races.errors import RaceOver
from games.races.models import Race, Racer
from games.races.public import PRESENCE_SECONDS, race_state, racer_progress

MIN_PLAYERS = 2
#: The longest an open rematch waits for the previous racers still at the race's end.
REMATCH_WAIT = timedelta(seconds=30)


def racers_of(race: Race) -> list[Racer]:
    return list(race.racers.select_related("player").order_by("seat"))


def locked(race_id: int) -> Race:
    return Race.objects.select_for_update(of=("self",)).select_related("creator").get(pk=race_id)


def publish_state(race: Race, racers: list[Racer], now: datetime) -> None:
    events.happened(events.RaceChanged(race_state(race, racers, now)))


def bump(race: Race) -> None:
    race.version += 1
    Race.objects.filter(pk=race.pk).update(version=race.version)


# ---- timers ---------------------------------------------------------------------------------


def _is_due(race_id: int, now: datetime) -> bool:
    """Whether a stored timer has run out: one read, no lock (the locked pass decides)."""
    playing = Q(racers__state=Racer.State.PLAYING)
    row = (
        Race.objects.filter(pk=race_id)
        .annotate(
            oldest_seen=Min("racers__seen_at", filter=playing),
            oldest_present=Min("racers__seen_at", filter=playing & Q(racers__connected=True)),
        )
        .values(
            "status",
            "starts_at",
            "ends_at",
            "grace",
            "rematch_of",
            "waiting_for",
            "oldest_seen",
            "oldest_present",
        )
        .first()
    )
    if row is None:
        return False
    if row["status"] == Race.Status.COUNTDOWN:
        return row["starts_at"] is not None and now >= row["starts_at"]
    if row["status"] == Race.Status.OPEN:  # a rematch may start as its waiting ends
        return row["rematch_of"] is not None and bool(row["waiting_for"])
    if row["status"] != Race.Status.RUNNING:
        return False
    stale = now - timedelta(seconds=PRESENCE_SECONDS)
    return (
        (row["ends_at"] is not None and now >= row["ends_at"])
        or (row["oldest_seen"] is not None and row["oldest_seen"] < now - row["grace"])
        or (row["oldest_present"] is not None and row["oldest_present"] < stale)
    )


def settle(race_id: int) -> None:
    """Apply every timer of the race that has run out (its own transaction; one read if none)."""
    if not _is_due(race_id, timezone.now()):
        return
    with transaction.atomic():
        race = locked(race_id)
        settle_locked(race, timezone.now())


def settle_locked(race: Race, now: datetime) -> None:
    """The same, with the race row already locked in the caller's transaction."""
    racers = racers_of(race)
    if race.status == Race.Status.COUNTDOWN and race.starts_at and now >= race.starts_at:
        _begin(race, racers, now)
        return
    if race.status == Race.Status.OPEN:
        waited_for = race.waiting_for
        if not start_if_ready(race, racers, now) and race.waiting_for != waited_for:
            bump(race)
            publish_state(race, racers, now)
        return
    if race.status != Race.Status.RUNNING:
        return
    if race.ends_at is not None and now >= race.ends_at:
        finish(race, racers, now, "time-limit")
        return
    changed = False
    stale = now - timedelta(seconds=PRESENCE_SECONDS)
    for racer in racers:
        if racer.state != Racer.State.PLAYING:
            continue
        if racer.seen_at < now - race.grace:
            racer.state, racer.finished_at, racer.connected = Racer.State.FORFEITED, now, False
            _close_game(racer)
            racer.save(update_fields=["state", "finished_at", "connected"])
            changed = True
        elif racer.connected and racer.seen_at < stale:  # its socket's process went away
            racer.connected = False
            racer.save(update_fields=["connected"])
            changed = True
    if not changed:
        return
    if not any(racer.state == Racer.State.PLAYING for racer in racers):
        finish(race, racers, now, "all-done")
        return
    bump(race)
    publish_state(race, racers, now)


def rematch_waits_for(race: Race, racers: list[Racer], now: datetime) -> list[str]:
    """The racers of the race a rematch follows who are still at its end (their race socket
    open) and have not joined yet: an open rematch waits for them, `REMATCH_WAIT` at most.
    Whoever left (closed the page, navigated away) is not waited for."""
    if race.rematch_of_id is None or race.status != Race.Status.OPEN:
        return []
    if now >= race.created_at + REMATCH_WAIT:
        return []
    stale = now - timedelta(seconds=PRESENCE_SECONDS)
    previous = (
        Racer.objects.filter(race_id=race.rematch_of_id, connected=True, seen_at__gte=stale)
        .exclude(player_id__in=[racer.player_id for racer in racers])
        .select_related("player")
        .order_by("seat")
    )
    return [racer.player.get_username() for racer in previous]


def start_if_ready(race: Race, racers: list[Racer], now: datetime) -> bool:
    """Start the countdown of an open room whose racers (two at least) are all ready; a rematch
    also waits for the previous racers still deciding (`rematch_waits_for`, kept in
    `waiting_for` for the page; the caller publishes the room when it does not start)."""
    waiting = rematch_waits_for(race, racers, now)
    if waiting != race.waiting_for:
        race.waiting_for = waiting
        race.save(update_fields=["waiting_for"])
    if waiting or len(racers) < MIN_PLAYERS or not all(racer.ready for racer in racers):
        return False
    start_countdown(race, racers, now, settings.RACE_COUNTDOWN_SECONDS)
    return True


def start_countdown(race: Race, racers: list[Racer], now: datetime, seconds: int) -> None:
    """Count down `seconds` (none: the race begins at once). One version, one push: the
    race feed's versions follow each other without a gap."""
    race.status = Race.Status.COUNTDOWN
    race.starts_at = now + timedelta(seconds=seconds)
    race.ends_at = race.starts_at + race.time_limit
    if seconds == 0:
        race.save(update_fields=["status", "starts_at", "ends_at"])
        _begin(race, racers, now)
        return
    race.version += 1
    race.save(update_fields=["status", "starts_at", "ends_at", "version"])
    publish_state(race, racers, now)


def _begin(race: Race, racers: list[Racer], now: datetime) -> None:
    """The countdown is over: every racer gets the same deal, dealt at `starts_at`."""
    code = GameCode.parse(race.code)
    dealt = private_form(deals.new_game(code))
    for racer in racers:
        game = Game.objects.create(
            owner=racer.player,
            code=race.code,
            rule=code.rule.letter,
            state=dealt,
            race_hidden=True,
            raced=True,
            origin=Game.Origin.RACE,
            created_at=race.starts_at or now,
        )
        racer.game = game
        racer.state = Racer.State.PLAYING
        racer.reached_at = race.starts_at
        racer.seen_at = now  # everyone's grace starts with the race
        racer.save(update_fields=["game", "state", "reached_at", "seen_at"])
    race.status = Race.Status.RUNNING
    race.version += 1
    race.save(update_fields=["status", "version"])
    publish_state(race, racers, now)


# ---- the end --------------------------------------------------------------------------------


def _close_game(racer: Racer) -> None:
    if racer.game_id is not None:
        endings.close_for_race(racer.game_id)


def finish(race: Race, racers: list[Racer], now: datetime, reason: str) -> None:
    """End the race: close unfinished games, rank, rate, reveal the code and the boards."""
    for racer in racers:
        if racer.state == Racer.State.PLAYING:
            racer.state, racer.finished_at = Racer.State.FINISHED, now
            _close_game(racer)
    for racer, place in zip(racers, ranking.places(racers), strict=True):
        racer.place = place
        racer.active = False
    ratings.rate(race, racers, now)
    for racer in racers:
        racer.save(
            update_fields=[
                "state",
                "finished_at",
                "place",
                "active",
                "rating_before",
                "rating_after",
                "sigma_after",
            ]
        )
    Game.objects.filter(racer__race=race).update(race_hidden=False)
    race.status, race.finished_at, race.end_reason = Race.Status.FINISHED, now, reason
    race.version += 1
    race.save(update_fields=["status", "finished_at", "end_reason", "version"])
    publish_state(race, racers, now)


# ---- moves in race games (called by games.services) ----------------------------------------


def ensure_running(race: Race) -> None:
    """Inside the move's transaction (race locked): a race that ended takes no more writes."""
    if race.status != Race.Status.RUNNING or (
        race.ends_at is not None and timezone.now() >= race.ends_at
    ):
        raise RaceOver(f"Race {race.room} is over: its games take no more moves.")


def record(race: Race, game: Game, state: GameState) -> None:
    """A racer's game changed: store the progress, tell the race feed, end the race on a win."""
    now = timezone.now()
    racer = Racer.objects.select_related("player").get(game_id=game.pk)
    if game.cards_on_foundations != racer.cards_on_foundations:
        racer.reached_at = now
    racer.cards_on_foundations = game.cards_on_foundations
    racer.face_down = sum(column["face_down"] for column in state["columns"])
    racer.moves = game.move_count
    racer.seen_at = now
    if game.status == Game.Status.WON:
        race.finishes += 1
        racer.state, racer.place, racer.finished_at = Racer.State.WON, race.finishes, now
        Race.objects.filter(pk=race.pk).update(finishes=race.finishes)
    elif game.status == Game.Status.ABANDONED:
        racer.state, racer.finished_at = Racer.State.RESIGNED, now
    racer.save()
    bump(race)
    progress = racer_progress(race, racer, now)
    events.happened(events.RaceProgressed(race.room, race.version, progress, now.isoformat()))
    if racer.state == Racer.State.WON:
        finish(race, racers_of(race), now, "won")
    elif racer.state == Racer.State.RESIGNED:
        racers = racers_of(race)
        if not any(other.state == Racer.State.PLAYING for other in racers):
            finish(race, racers, now, "all-done")
