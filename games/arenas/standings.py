"""Standings: the live table from the seats' scores (each updated as a game ends), and the
final one recomputed from the stored games alone (`final_ranks`), which the end writes.

Guests and marked accounts play and see their own score, but hold no rank: the table
leaves them out (games.fairness.counting.on_boards), live and final alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from django.db.models import Case, Count, F, Min, OuterRef, Q, Subquery, Value, When

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


@dataclass(frozen=True)
class Table:
    """One read of an arena: its ranked rows in order and every seated player's own part."""

    rows: list[Row]
    mine: dict[int, Mine]

    @property
    def players(self) -> int:
        return len(self.mine)


def read(arena: Arena) -> Table:
    """Every seat of the arena, best first (points, wins, less time, then who joined first),
    in one query: the ranked table (guests and marked accounts hold no rank:
    `counting.on_boards`) and each player's own part, with their latest game (a websocket
    process reads it once per interval for all its sockets)."""
    latest = ArenaGame.objects.filter(seat=OuterRef("pk")).order_by("-index")
    ranked = Case(When(counting.on_boards("player"), then=Value(True)), default=Value(False))
    entries = (
        Seat.objects.filter(arena=arena)
        .annotate(
            username=F("player__username"),
            game=Subquery(latest.values("game_id")[:1]),
            ranked=ranked,
        )
        .order_by("-points", "-wins", "time", "joined_at", "pk")
        .values(
            "pk",
            "player_id",
            "username",
            "points",
            "wins",
            "in_a_row",
            "games_ended",
            "time",
            "game",
            "ranked",
        )
    )
    rows: list[Row] = []
    mine: dict[int, Mine] = {}
    for entry in entries:
        time_ms = int(entry["time"].total_seconds() * 1000)
        rank = None
        if entry["ranked"]:
            rank = len(rows) + 1
            rows.append(
                {
                    "rank": rank,
                    "seat": entry["pk"],
                    "username": entry["username"],
                    "points": entry["points"],
                    "wins": entry["wins"],
                    "in_a_row": entry["in_a_row"],
                    "games": entry["games_ended"],
                    "time_ms": time_ms,
                }
            )
        mine[entry["player_id"]] = {
            "rank": rank,
            "points": entry["points"],
            "wins": entry["wins"],
            "in_a_row": entry["in_a_row"],
            "on_streak": entry["in_a_row"] >= points.STREAK_AFTER,
            "games": entry["games_ended"],
            "time_ms": time_ms,
            "game": entry["game"],
        }
    return Table(rows, mine)


def page_of(rows: list[Row], page: int) -> list[Row]:
    return rows[(page - 1) * PAGE : page * PAGE]


def around(rows: list[Row], rank: int | None) -> list[Row]:
    """The viewer's row and `NEIGHBOURS` on each side (empty without a rank)."""
    if rank is None:
        return []
    return rows[max(0, rank - 1 - NEIGHBOURS) : rank + NEIGHBOURS]


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


def view(
    arena: Arena, table: Table, viewer_id: int | None, *, page: int, now: datetime
) -> Standings:
    """One viewer's standings: a page of the table (page 1: the top 10), their own row and
    its neighbours, how many play, and the time left (no query: a websocket process builds
    one per socket from one read)."""
    rows = table.rows
    own = table.mine.get(viewer_id) if viewer_id is not None else None
    return {
        "arena": arena.public_id,
        "status": arena.status_at(now),
        "players": table.players,
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
