"""`/ws/v1/arenas/<id>/`: an arena's live standings, for its players and any spectator.

A burst of finishes costs one push per interval: each websocket process keeps one
`ArenaWatch` per arena its sockets follow, which every `ARENA_PUSH_INTERVAL_MS` settles the
arena (so it ends on time with no request), reads its version (its seats, games dealt and
games ended, plus one once over) and, only when that moved, the table, once for all its sockets;
each socket then gets its own view (the top 10, its player's rank and neighbours). The
table comes from PostgreSQL (the seats' scores, updated as each game ends); no push goes
through the channel layer, so no Redis message is spent on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db.models import Count, Sum

from accounts.scopes import ARENA_READ
from api.realtime.consumers import CLOSE_NO_GAME, PushConsumer
from games import pushes
from games.arenas import clock, play, standings
from games.arenas.errors import ArenaNotFound
from games.arenas.models import Arena, ArenaGame, Seat

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Picture:
    """What one read of the arena gives every socket of this process: each socket's view is
    built from it with no further query."""

    version: int
    arena: Arena
    table: standings.Table

    def message(self, player_id: int | None) -> pushes.Push:
        view = standings.view(self.arena, self.table, player_id, page=1, now=clock.now())
        return pushes.arena(self.version, view)


def _version(arena: Arena) -> int:
    """The arena's version: its seats, games dealt and games ended, plus one once over (each
    only grows)."""
    seats = Seat.objects.filter(arena=arena).aggregate(n=Count("pk"), ended=Sum("games_ended"))
    dealt = ArenaGame.objects.filter(seat__arena=arena).count()
    over = arena.finished_at is not None
    return int(seats["n"]) + dealt + int(seats["ended"] or 0) + over


def read_picture(arena_id: int, known: int | None) -> Picture | None:
    """Settle the arena, then read it unless its version is still `known` (then None)."""
    play.settle(arena_id)
    arena = Arena.objects.get(pk=arena_id)
    version = _version(arena)
    if version == known:
        return None
    return Picture(version, arena, standings.read(arena))


def _find_now(public_id: str) -> int | None:
    try:
        return play.find(public_id).pk
    except ArenaNotFound:
        return None


# The ticks' reads run off the shared sync thread (thread_sensitive=False), where the
# process's HTTP views run: many arenas ticking must not queue moves.
_read = DatabaseSyncToAsync(read_picture, thread_sensitive=False)
_find = database_sync_to_async(_find_now)


class ArenaWatch:
    """This process's reader of one arena: one read per interval, one view per socket when
    the arena's version moved past `version` (what its sockets were last sent)."""

    def __init__(self, arena_id: int, version: int) -> None:
        self.arena_id = arena_id
        self.sockets: set[ArenaFeedConsumer] = set()
        self.version = version
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        interval = settings.ARENA_PUSH_INTERVAL_MS / 1000
        while self.sockets:
            await asyncio.sleep(interval)
            try:
                await self.tick()
            except Exception:  # the database may be briefly away: the next tick tries again
                logger.warning("arena %s: a standings tick failed", self.arena_id, exc_info=True)

    async def tick(self) -> None:
        picture = await _read(self.arena_id, self.version)
        if picture is None:
            return
        self.version = picture.version
        for socket in list(self.sockets):
            await socket.send_view(picture)


_watches: dict[int, ArenaWatch] = {}


class ArenaFeedConsumer(PushConsumer):
    required_scope = ARENA_READ
    arena_id: int | None = None
    player_id: int | None = None

    async def connect(self) -> None:
        self.arena_id = await _find(str(self.scope["url_route"]["kwargs"]["arena"]))
        if self.arena_id is None:
            await self.refuse(CLOSE_NO_GAME)
            return
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.player_id = user.pk
        await super().connect()

    async def start(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json(pushes.hello(username, owner=False))
        version = await self.send_snapshot()
        assert self.arena_id is not None
        watch = _watches.get(self.arena_id)
        if watch is None or watch.task.done():
            watch = _watches[self.arena_id] = ArenaWatch(self.arena_id, version)
        watch.sockets.add(self)

    async def snapshot(self) -> None:
        await self.send_snapshot()

    async def send_snapshot(self) -> int:
        """Send the socket's view now (on connect, on resync); the version it shows."""
        assert self.arena_id is not None
        picture = await _read(self.arena_id, None)
        assert picture is not None
        await self.send_view(picture)
        return picture.version

    async def send_view(self, picture: Picture) -> None:
        await self.send_json(picture.message(self.player_id))

    async def release(self) -> None:
        watch = _watches.get(self.arena_id) if self.arena_id is not None else None
        if watch is not None:
            watch.sockets.discard(self)
            if not watch.sockets:
                watch.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await watch.task
                if _watches.get(watch.arena_id) is watch:
                    del _watches[watch.arena_id]
        await super().release()
