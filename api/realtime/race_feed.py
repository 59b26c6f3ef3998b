"""`/ws/v1/races/<room>/`: a race's feed (its state, every racer's progress) and its clock.

Anyone may follow a race: the feed names no card and no code while the race runs. A
racer's socket is their presence: opening it marks them connected, closing it
disconnected, and every `tick_seconds` it refreshes their last sign of life. Each
socket's tick also settles the race's stored timers (countdown end, time limit,
forfeits after the grace), so a race ends on time with no background task system.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.utils import timezone

from accounts.scopes import RACE_READ
from api.realtime.consumers import CLOSE_NO_GAME, SequencedConsumer
from api.realtime.sequencer import position_of
from games import pushes
from games.races import lifecycle, rooms
from games.races.models import Race
from games.races.public import race_state


@database_sync_to_async
def _find(room: str, user: Any) -> tuple[int, bool] | None:
    """The race's id and whether `user` races in it, or None when there is no such race."""
    race = Race.objects.filter(room=room).first()
    if race is None:
        return None
    player_id = getattr(user, "pk", None)
    return race.pk, race.racers.filter(player_id=player_id).exists()


@database_sync_to_async
def _snapshot(race_id: int) -> pushes.Push:
    lifecycle.settle(race_id)
    race = Race.objects.select_related("creator", "rematch").get(pk=race_id)
    return pushes.race(race_state(race, lifecycle.racers_of(race), timezone.now()))


def _touch_now(player_id: int, race_id: int, connected: bool) -> None:
    rooms.touch(player_id, race_id, connected=connected)


# The periodic tick's reads and writes run off the shared sync thread (thread_sensitive=False),
# where the process's HTTP views run: hundreds of sockets ticking must not queue moves.
_touch = DatabaseSyncToAsync(_touch_now, thread_sensitive=False)
_settle = DatabaseSyncToAsync(lifecycle.settle, thread_sensitive=False)


class RaceFeedConsumer(SequencedConsumer):
    required_scope = RACE_READ
    ticker: asyncio.Task[None] | None = None
    racer_id: int | None = None
    tick_seconds = float(settings.RACE_TICK_SECONDS)

    async def connect(self) -> None:
        self.room = str(self.scope["url_route"]["kwargs"]["room"]).upper()
        self.start_sequence()
        found = await _find(self.room, self.scope.get("user"))
        if found is None:
            await self.refuse(CLOSE_NO_GAME)
            return
        self.race_id, racing = found
        user = self.scope.get("user")
        if racing and user is not None:
            self.racer_id = user.pk
        self.group = pushes.race_group(self.room)
        await super().connect()

    async def start(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json(pushes.hello(username, owner=self.racer_id is not None))
        if self.racer_id is not None:
            await _touch(self.racer_id, self.race_id, True)
        await self.snapshot()
        self.ticker = asyncio.create_task(self._tick())

    async def snapshot(self) -> None:
        async with self.lock:
            joined = await self._notice_joining()  # a client resyncs after joining: present
            if joined and self.racer_id is not None:
                await _touch(self.racer_id, self.race_id, True)
            state = await _snapshot(self.race_id)
            await self.send_snapshot(state, position_of(state["v"], state["t"]))

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            with contextlib.suppress(Exception):  # a failed tick is retried at the next one
                await self._notice_joining()
                if self.racer_id is not None:
                    await _touch(self.racer_id, self.race_id, True)
                await _settle(self.race_id)

    async def _notice_joining(self) -> bool:
        """A watcher who joined the race since connecting: this socket is their presence now.
        True when that just happened."""
        user = self.scope.get("user")
        if self.racer_id is not None or user is None or not user.is_authenticated:
            return False
        found = await _find(self.room, user)
        if found is not None and found[1]:
            self.racer_id = user.pk
            return True
        return False

    async def release(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        if self.racer_id is not None:
            with contextlib.suppress(Exception):
                await _touch(self.racer_id, self.race_id, False)
        await super().release()
