"""An arena's public form: what anyone may read (never a deal code while it runs)."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from games.arenas.models import Arena, ArenaGame, Seat
from games.fairness import visibility


class YourGame(TypedDict):
    """One of your games of the arena: the arena page's board, "without undo", the replays."""

    index: int
    game: int
    status: str
    without_undo: bool


class YourSeat(TypedDict):
    joined_at: str
    points: int
    rank: int | None
    games: list[YourGame]


class ArenaState(TypedDict):
    id: str
    name: str
    kind: str
    rule: str
    private: bool
    link: str
    status: str
    starts_at: str
    ends_at: str
    server_now: str
    minutes: int
    deals: int
    codes: list[str] | None
    players: int
    creator: str | None
    seat: YourSeat | None


def your_games(seat: Seat) -> list[YourGame]:
    """The seat's own games in sequence order (never a code: those come with `codes`)."""
    entries = ArenaGame.objects.filter(seat=seat).select_related("game").order_by("index")
    return [
        {
            "index": entry.index,
            "game": entry.game_id,
            "status": entry.game.status,
            "without_undo": entry.without_undo,
        }
        for entry in entries
    ]


def arena_state(arena: Arena, seat: Seat | None, now: datetime, players: int) -> ArenaState:
    return {
        "id": arena.public_id,
        "name": arena.name,
        "kind": arena.kind,
        "rule": arena.rule,
        "private": arena.private,
        "link": f"/arenas/{arena.public_id}",
        "status": arena.status_at(now),
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "server_now": now.isoformat(),
        "minutes": int(arena.length.total_seconds() // 60),
        "deals": len(arena.deals),
        "codes": visibility.arena_codes(arena),
        "players": players,
        "creator": arena.creator.get_username() if arena.creator else None,
        "seat": None
        if seat is None
        else {
            "joined_at": seat.joined_at.isoformat(),
            "points": seat.points,
            "rank": seat.rank,
            "games": your_games(seat),
        },
    }
