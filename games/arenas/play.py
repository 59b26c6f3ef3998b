"""An arena's life: create, join, the seat's current game, "without undo", each game's end
(the next deal follows at once), and the end of the arena, all from stored timestamps read
through `games.arenas.clock`.

Lock order, everywhere: the arena row, then game rows, then seat rows. A write to an arena
game (games.services) holds its game's lock and then its seat's (`record`); the end
(`settle`) locks the arena, then every active game of it (closing each), then the seats.
Joining holds the arena row (so no seat is added while the end is settled), then the
player's own row (so two joins of one player at once run one after the other).

The arena covers [starts_at, ends_at): a write at `ends_at` or later, to the same
millisecond, is refused (`arena-over`), and the game it would have changed closes with the
arena, its points up to then counted.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from games import deals, endings
from games.arenas import clock, points, schedule, sequence, standings
from games.arenas.errors import (
    AlreadyJoined,
    AlreadyStarted,
    ArenaInProgress,
    ArenaNotFound,
    ArenaNotStarted,
    ArenaOver,
    BadStart,
    InAnotherArena,
    NotSeated,
    SequenceDone,
    UndoOff,
)
from games.arenas.models import Arena, ArenaGame, Seat
from games.arenas.public import ArenaState, arena_state
from games.engine import GameCode, private_form
from games.models import Game
from games.public import GameState

#: A player-made arena's length, in minutes, and how far ahead it may start.
MIN_MINUTES, MAX_MINUTES = 10, 180
MAX_AHEAD = timedelta(days=7)
#: A start this little in the past is taken as now (the client's clock, the request's way).
START_SLACK = timedelta(minutes=1)


# ---- finding and making ----------------------------------------------------------------------


def find(public_id: str) -> Arena:
    """The arena its public id names: a public arena's number, or any arena's link token. A
    private arena's number is no way in: it answers like an arena that does not exist."""
    lookup = Q(token=public_id)
    if public_id.isdigit() and len(public_id) < 12:
        lookup |= Q(pk=int(public_id), private=False)
    arena = Arena.objects.filter(lookup).select_related("creator").first()
    if arena is None:
        raise ArenaNotFound(f"There is no arena {public_id!r}.")
    return arena


def create(
    player: User,
    *,
    rule: str,
    starts_at: datetime | None,
    minutes: int,
    private: bool,
    name: str = "",
) -> Arena:
    """A player's own arena, starting now or within `MAX_AHEAD` (never rated: no arena is);
    its deals are chosen now."""
    now = clock.now()
    start = starts_at or now
    if start < now - START_SLACK or start > now + MAX_AHEAD:
        raise BadStart(f"{start.isoformat()} is not between now and 7 days ahead.")
    start = max(start, now)
    length = timedelta(minutes=minutes)
    deals_chosen = sequence.choose(rule.upper(), length)
    return Arena.objects.create(
        kind=Arena.Kind.PLAYER,
        name=name,
        rule=rule.upper(),
        starts_at=start,
        ends_at=start + length,
        private=private,
        token=secrets.token_urlsafe(18),
        creator=player,
        deals=deals_chosen,
    )


def is_over(arena: Arena, now: datetime) -> bool:
    return arena.finished_at is not None or now >= arena.ends_at


# ---- joining and playing ---------------------------------------------------------------------


def seat_of(arena: Arena, player: User | None) -> Seat | None:
    if player is None or not player.is_authenticated:
        return None
    return Seat.objects.filter(arena=arena, player=player).first()


def join(player: User, arena: Arena) -> Game | None:
    """Take a seat (any time before the end); after the start, deal 1 comes with it (its
    game is returned; None before the start)."""
    _settle_open_seat(player)
    try:
        with transaction.atomic():
            locked = Arena.objects.select_for_update(no_key=True).get(pk=arena.pk)
            now = clock.now()
            if is_over(locked, now):
                raise ArenaOver(f"Arena {arena.public_id} ended at {locked.ends_at.isoformat()}.")
            User.objects.select_for_update().filter(pk=player.pk).values_list("pk").first()
            held = Seat.objects.filter(player=player, active=True).first()
            if held is not None and held.arena_id == arena.pk:
                raise AlreadyJoined(f"You already have a seat in arena {arena.public_id}.")
            if held is not None:
                raise InAnotherArena(f"You have a seat in arena {held.arena_id}, not over yet.")
            seat = Seat.objects.create(arena=locked, player=player, joined_at=now)
            first = _deal(locked, seat, 0, now) if now >= locked.starts_at else None
    except IntegrityError as clash:  # the constraints behind the checks above
        if Seat.objects.filter(arena=arena, player=player).exists():
            raise AlreadyJoined(f"You already have a seat in arena {arena.public_id}.") from clash
        raise InAnotherArena("You have a seat in another arena, not over yet.") from clash
    return first


def _settle_open_seat(player: User) -> None:
    """A seat held in an arena that has ended but nobody settled yet frees the player now."""
    held = Seat.objects.filter(player=player, active=True).values_list("arena_id", flat=True)
    for arena_id in list(held):
        settle(arena_id)


def _deal(arena: Arena, seat: Seat, index: int, now: datetime) -> Game:
    """The seat's game of the sequence's deal at `index`: secret while the arena runs."""
    code = arena.deals[index]
    game = Game.objects.create(
        owner_id=seat.player_id,
        code=code,
        rule=arena.rule,
        state=private_form(deals.new_game(GameCode.parse(code))),
        origin=Game.Origin.ARENA,
        race_hidden=True,
        raced=True,
        created_at=now,
    )
    ArenaGame.objects.create(seat=seat, index=index, game=game)
    return game


def current_game(player: User, arena: Arena) -> Game:
    """The seat's game to play now: its active game, else the next deal of the sequence (a
    game closed by the arena's end, once it is over)."""
    settle(arena.pk)
    now = clock.now()
    seat = seat_of(arena, player)
    if seat is None:
        raise NotSeated(f"You have no seat in arena {arena.public_id}.")
    if now < arena.starts_at:
        raise ArenaNotStarted(f"Arena {arena.public_id} starts at {arena.starts_at.isoformat()}.")
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        last = ArenaGame.objects.filter(seat=seat).select_related("game").order_by("-index").first()
        if last is not None and (last.game.status == Game.Status.ACTIVE or is_over(arena, now)):
            return last.game
        if is_over(arena, now):
            raise ArenaOver(f"Arena {arena.public_id} is over.")
        index = 0 if last is None else last.index + 1
        if index >= len(arena.deals):
            raise SequenceDone(f"Every deal of arena {arena.public_id} has been played.")
        return _deal(arena, seat, index, now)


def choose_without_undo(player: User, arena: Arena) -> Game:
    """Play the seat's current game without undo (+1 on a win): before its first move only."""
    game = current_game(player, arena)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status != Game.Status.ACTIVE or is_over(arena, clock.now()):
            raise ArenaOver(f"Game {game.pk} is over.")
        if locked.version != 0:
            raise AlreadyStarted(f"Game {game.pk} has had its first move.")
        ArenaGame.objects.filter(game=locked).update(without_undo=True)
    return locked


# ---- writes to arena games (called by games.services, the game's row locked) ----------------


def ensure_open(game: Game) -> None:
    """A write to an arena game at or after its arena's end is refused (`settle_after`
    then closes it, once the write's transaction has rolled back)."""
    found = Arena.objects.filter(seats__games__game=game).values_list("pk", "ends_at").first()
    if found is not None and clock.now() >= found[1]:
        over = ArenaOver(f"Game {game.pk}'s arena ended at {found[1].isoformat()}: no more moves.")
        over.arena_id = found[0]
        raise over


def settle_after(over: ArenaOver) -> None:
    """A write refused at the end settles the arena (the write held the game's lock, which
    comes after the arena's: so here, once it is released)."""
    if over.arena_id is not None:
        settle(over.arena_id)


def ensure_undo_allowed(game: Game) -> None:
    if ArenaGame.objects.filter(game=game, without_undo=True).exists():
        raise UndoOff(f"Game {game.pk} is played without undo.")


def record(game: Game, state: GameState) -> GameState:
    """After a write to an arena game: a game with no move left ends as it stands; an ended
    game updates its seat's score and the next deal follows at once. The game's state after
    all that is returned."""
    if game.status == Game.Status.ACTIVE and not state["legal_moves"]:
        state = endings.end_unfinished(game, deals.current(game))
    if game.status == Game.Status.ACTIVE:
        return state
    entry = ArenaGame.objects.select_related("seat__arena").get(game=game)
    seat = Seat.objects.select_for_update().get(pk=entry.seat_id)
    arena = entry.seat.arena
    _score(seat)
    now = clock.now()
    following = entry.index + 1
    if (
        not is_over(arena, now)
        and following < len(arena.deals)
        and not ArenaGame.objects.filter(seat=seat, index=following).exists()
    ):
        _deal(arena, seat, following, now)
    return state


def _score(seat: Seat) -> None:
    """The seat's live score, from its ended games (each one's end recomputes it)."""
    score = points.score(standings.played(seat))
    seat.points, seat.wins, seat.in_a_row = score.points, score.wins, score.in_a_row
    seat.games_ended, seat.time = len(score.each), score.time
    seat.save(update_fields=["points", "wins", "in_a_row", "games_ended", "time"])


# ---- the end ---------------------------------------------------------------------------------


def _is_due(arena_id: int, now: datetime) -> bool:
    """Whether the end needs settling (one read): the arena reached its end unsettled, or a
    game dealt as it ended is still open."""
    row = Arena.objects.filter(pk=arena_id).values("ends_at", "finished_at").first()
    if row is None or now < row["ends_at"]:
        return False
    if row["finished_at"] is None:
        return True
    return Game.objects.filter(
        arena_game__seat__arena_id=arena_id, status=Game.Status.ACTIVE
    ).exists()


def settle(arena_id: int) -> bool:
    """End the arena if its time is up (its own transaction); whether anything was done."""
    if not _is_due(arena_id, clock.now()):
        return False
    with transaction.atomic():
        arena = Arena.objects.select_for_update().get(pk=arena_id)
        now = clock.now()
        open_games = Game.objects.filter(
            arena_game__seat__arena=arena, status=Game.Status.ACTIVE
        ).values_list("pk", flat=True)
        for game_id in list(open_games):
            endings.close_for_race(game_id)
        # Every game of the arena, locked before any seat (the lock order), opens now.
        Game.objects.filter(arena_game__seat__arena=arena).update(race_hidden=False)
        seats = list(Seat.objects.select_for_update().filter(arena=arena).order_by("pk"))
        for seat in seats:
            _score(seat)
        ranks = standings.final_ranks(arena)
        for seat in seats:
            seat.rank, seat.active = ranks.get(seat.pk), False
            seat.save(update_fields=["rank", "active"])
        if arena.finished_at is None:
            arena.finished_at = now
            arena.save(update_fields=["finished_at"])
    return True


def settle_ended(now: datetime) -> int:
    """Settle every arena past its end that nobody touched since (the task workers' janitor
    does, so a profile's record never waits for a visit); how many."""
    due = Arena.objects.filter(finished_at__isnull=True, ends_at__lte=now)
    return sum(settle(arena_id) for arena_id in due.values_list("pk", flat=True))


# ---- reading -------------------------------------------------------------------------------


def describe(arena: Arena, viewer: User | None) -> ArenaState:
    """The arena as `viewer` reads it (settled first: an arena past its end reads as over)."""
    if settle(arena.pk):
        arena.refresh_from_db()
    now = clock.now()
    players = Seat.objects.filter(arena=arena).count()
    return arena_state(arena, seat_of(arena, viewer), now, players)


def listing(status: str, viewer: User | None, limit: int = 50) -> list[ArenaState]:
    """Public arenas, upcoming (soonest first), running, or finished (latest first); the
    schedule's next arenas are made first if no process made them yet."""
    now = clock.now()
    schedule.ensure_ahead(now)
    arenas = Arena.objects.filter(private=False).select_related("creator")
    if status == Arena.Status.UPCOMING:
        chosen = arenas.filter(starts_at__gt=now).order_by("starts_at", "pk")
    elif status == Arena.Status.RUNNING:
        chosen = arenas.filter(starts_at__lte=now, ends_at__gt=now).order_by("ends_at", "pk")
    else:
        chosen = arenas.filter(ends_at__lte=now).order_by("-ends_at", "-pk")
    found = list(chosen[:limit])
    for arena in found:
        if arena.finished_at is None and now >= arena.ends_at and settle(arena.pk):
            arena.refresh_from_db()
    counts = dict(
        Seat.objects.filter(arena__in=found)
        .values("arena_id")
        .annotate(n=Count("pk"))
        .values_list("arena_id", "n")
    )
    seats = {}
    if viewer is not None and viewer.is_authenticated:
        seats = {
            seat.arena_id: seat for seat in Seat.objects.filter(arena__in=found, player=viewer)
        }
    return [arena_state(a, seats.get(a.pk), now, counts.get(a.pk, 0)) for a in found]


def games_of(arena: Arena, username: str, viewer: User | None) -> list[standings.SeatGame]:
    """A player's games of the arena: their own at any time, anyone's once it is over (while
    it runs they would show others' boards of the shared deals: `arena-in-progress`)."""
    if settle(arena.pk):
        arena.refresh_from_db()
    seat = Seat.objects.filter(arena=arena, player__username=username).first()
    if seat is None:
        raise NotSeated(f"{username!r} has no seat in arena {arena.public_id}.")
    own = viewer is not None and viewer.is_authenticated and seat.player_id == viewer.pk
    if not own and arena.finished_at is None:
        raise ArenaInProgress(
            f"Arena {arena.public_id} is running: only {username!r} sees their games until it ends."
        )
    return standings.games_of(seat)


def standings_for(arena: Arena, viewer: User | None, page: int) -> standings.Standings:
    if settle(arena.pk):
        arena.refresh_from_db()
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    return standings.view(arena, standings.read(arena), viewer_id, page=page, now=clock.now())
