"""Standings: the live table from the seats' scores (each updated as a game ends), and the
final one recomputed from the stored games alone (`final_ranks`), which the end writes.

Guests and marked accounts play and see their own score, but hold no rank: the table
leaves them out (games.fairness.counting.on_boards), live and final alike.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.db.models import Count, Min, OuterRef, Q, QuerySet, Subquery

from games.arenas import points
from games.arenas.models import Arena, ArenaGame, Seat
from games.fairness import counting, visibility
from games.models import Game

PAGE = 10
#: Rows shown on each side of the viewer's own.
NEIGHBOURS = 2


def played(seat: Seat) -> list[points.Played]:
    """The seat's ended games in sequence order, as the points rule reads them."""
    entries = (
        ArenaGame.objects.filter(seat=seat)
        .exclude(game__status=Game.Status.ACTIVE)
        .select_related("game")
        .order_by("index")
    )
    return [
        points.Played(
            won=entry.game.status == Game.Status.WON,
            cards=entry.game.cards_on_foundations,
            moves=entry.game.move_count,
            without_undo=entry.without_undo,
            time=entry.game.time_played,
        )
        for entry in entries
    ]


def ranked_seats(arena: Arena) -> QuerySet[Seat]:
    """The seats that hold a rank, best first (points, wins, less time; then who joined first)."""
    return (
        Seat.objects.filter(arena=arena)
        .filter(counting.on_boards("player"))
        .select_related("player")
        .order_by("-points", "-wins", "time", "joined_at", "pk")
    )


def final_ranks(arena: Arena) -> dict[int, int]:
    """Each ranked seat's final rank (seat id → 1, 2, ...), from the stored games alone."""
    seats = list(Seat.objects.filter(arena=arena).filter(counting.on_boards("player")))
    scored = []
    for seat in seats:
        score = points.score(played(seat))
        scored.append(
            (points.sort_key(score.points, score.wins, score.time), seat.joined_at, seat.pk)
        )
    scored.sort()
    return {seat_id: rank for rank, (_key, _joined, seat_id) in enumerate(scored, start=1)}


class Row(TypedDict):
    rank: int
    seat: int
    username: str
    points: int
    wins: int
    in_a_row: int
    games: int
    time_ms: int


class Mine(TypedDict):
    rank: int | None
    points: int
    wins: int
    in_a_row: int
    on_streak: bool
    games: int
    time_ms: int
    game: int | None


def _row(rank: int, seat: Seat) -> Row:
    return {
        "rank": rank,
        "seat": seat.pk,
        "username": seat.player.get_username(),
        "points": seat.points,
        "wins": seat.wins,
        "in_a_row": seat.in_a_row,
        "games": seat.games_ended,
        "time_ms": int(seat.time.total_seconds() * 1000),
    }


def table(arena: Arena) -> list[Row]:
    """The whole ranked table, in order (a websocket process reads it once per interval)."""
    return [_row(rank, seat) for rank, seat in enumerate(ranked_seats(arena), start=1)]


def page_of(rows: list[Row], page: int) -> list[Row]:
    return rows[(page - 1) * PAGE : page * PAGE]


def around(rows: list[Row], rank: int | None) -> list[Row]:
    """The viewer's row and `NEIGHBOURS` on each side (empty without a rank)."""
    if rank is None:
        return []
    return rows[max(0, rank - 1 - NEIGHBOURS) : rank + NEIGHBOURS]


def with_current_game(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """The seats with `current_game`: the id of each one's latest game (None before deal 1)."""
    latest = ArenaGame.objects.filter(seat=OuterRef("pk")).order_by("-index")
    return seats.annotate(current_game=Subquery(latest.values("game_id")[:1]))


def mine(seat: Seat | None, ranks: dict[int, int]) -> Mine | None:
    """The viewer's own part: their score, rank (None: a guest, a marked account) and game
    (`seat` read through `with_current_game`; `ranks`: seat id → rank)."""
    if seat is None:
        return None
    return {
        "rank": ranks.get(seat.pk),
        "points": seat.points,
        "wins": seat.wins,
        "in_a_row": seat.in_a_row,
        "on_streak": seat.in_a_row >= points.STREAK_AFTER,
        "games": seat.games_ended,
        "time_ms": int(seat.time.total_seconds() * 1000),
        "game": getattr(seat, "current_game", None),
    }


class Standings(TypedDict):
    arena: str
    status: str
    players: int
    ranked: int
    starts_at: str
    ends_at: str
    server_now: str
    seconds_left: int
    page: int
    pages: int
    rows: list[Row]
    around: list[Row]
    mine: Mine | None


def ranks_of(rows: list[Row]) -> dict[int, int]:
    return {row["seat"]: row["rank"] for row in rows}


def view(
    arena: Arena,
    rows: list[Row],
    *,
    page: int,
    now: datetime,
    players: int,
    own: Mine | None,
) -> Standings:
    """One viewer's standings: a page of the table (page 1: the top 10), their own row and
    its neighbours, how many play, and the time left (no query: a websocket process builds
    one per socket from one read)."""
    return {
        "arena": arena.public_id,
        "status": arena.status_at(now),
        "players": players,
        "ranked": len(rows),
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "server_now": now.isoformat(),
        "seconds_left": max(0, int((arena.ends_at - now).total_seconds())),
        "page": page,
        "pages": max(1, -(-len(rows) // PAGE)),
        "rows": page_of(rows, page),
        "around": around(rows, own["rank"] if own else None),
        "mine": own,
    }


class ArenaRecord(TypedDict):
    played: int
    podiums: int
    best_rank: int | None


def record(player_id: int) -> ArenaRecord:
    """A player's arenas on their profile: arenas played to their end, final ranks 1 to 3,
    the best final rank (None: never ranked)."""
    settled = Seat.objects.filter(player_id=player_id, arena__finished_at__isnull=False)
    figures = settled.aggregate(
        played=Count("pk"), podiums=Count("pk", filter=Q(rank__lte=3)), best=Min("rank")
    )
    return {
        "played": figures["played"],
        "podiums": figures["podiums"],
        "best_rank": figures["best"],
    }


class SeatGame(TypedDict):
    index: int
    game: int
    code: str | None
    status: str
    cards_on_foundations: int
    moves: int
    without_undo: bool
    points: int | None


def games_of(seat: Seat) -> list[SeatGame]:
    """A seat's games in sequence order, each with its points once ended (codes only where
    `visibility.hides_code` allows: once the arena is over)."""
    entries = list(ArenaGame.objects.filter(seat=seat).select_related("game").order_by("index"))
    ended = [entry for entry in entries if entry.game.status != Game.Status.ACTIVE]
    earned = dict(zip((entry.pk for entry in ended), points.score(played(seat)).each, strict=True))
    return [
        {
            "index": entry.index,
            "game": entry.game_id,
            "code": None if visibility.hides_code(entry.game) else entry.game.code,
            "status": entry.game.status,
            "cards_on_foundations": entry.game.cards_on_foundations,
            "moves": entry.game.move_count,
            "without_undo": entry.without_undo,
            "points": earned.get(entry.pk),
        }
        for entry in entries
    ]
