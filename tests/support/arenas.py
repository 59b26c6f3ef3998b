"""Arena helpers: a clock tests set, arenas on known deals, a seat's games played out."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User

from games import services
from games.arenas.models import Arena, ArenaGame, Seat
from games.models import Game
from tests.support.play import winning_line

#: A fixed moment the arena tests start from (a Monday, 17:00 UTC).
T0 = datetime(2026, 12, 7, 17, 0, tzinfo=UTC)


@dataclass
class Clock:
    """The arenas' clock (games.arenas.clock.now), set by the test; a thread may read a time
    of its own (`in_this_thread`), for two requests on either side of a moment."""

    at: datetime = T0
    threads: threading.local = field(default_factory=threading.local)

    def now(self) -> datetime:
        own: datetime | None = getattr(self.threads, "at", None)
        return own or self.at

    def in_this_thread(self, at: datetime) -> None:
        self.threads.at = at

    def move(self, **delta: float) -> datetime:
        self.at += timedelta(**delta)
        return self.at


def arena_on_known_deals(
    *,
    starts_at: datetime = T0,
    minutes: int = 30,
    private: bool = False,
    deals: int = 10,
) -> Arena:
    """A public player-made arena whose every deal is the Classic deal with a known winning
    line (the tests' fixed choice: a win is its line played)."""
    return Arena.objects.create(
        kind=Arena.Kind.PLAYER,
        name="test arena",
        rule="C",
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        private=private,
        token=secrets.token_urlsafe(18),
        deals=[winning_line()[0]] * deals,
    )


def current(player: User, arena: Arena) -> Game:
    seat = Seat.objects.get(arena=arena, player=player)
    entry = ArenaGame.objects.filter(seat=seat).select_related("game").order_by("-index").first()
    assert entry is not None
    return entry.game


def win_current(player: User, arena: Arena) -> Game:
    """Win the seat's current game with the known line (through the move service), from
    where the line's first moves left it."""
    game = current(player, arena)
    version = game.version
    for move in winning_line()[1][version:]:
        version = services.play_move(player, game.pk, move=move, version=version).game.version
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    return game


def play_some(player: User, arena: Arena, moves: int) -> Game:
    """Play the next `moves` moves of the known line on the seat's current game."""
    game = current(player, arena)
    version = game.version
    for move in winning_line()[1][version : version + moves]:
        version = services.play_move(player, game.pk, move=move, version=version).game.version
    game.refresh_from_db()
    return game


def resign_current(player: User, arena: Arena) -> Game:
    game = current(player, arena)
    services.resign(player, game.pk, version=game.version)
    game.refresh_from_db()
    return game
