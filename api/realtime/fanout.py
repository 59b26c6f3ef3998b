"""One channel-layer subscription per group per process, fanned out to local sockets.

With Redis, each consumer used to join the group itself: a push to 500 spectators
held by one process became 500 messages, each a Redis round trip for that
process's receive loop. Here a process subscribes once per group and hands each
message to its local consumers directly, so a push costs one message per process.

With Redis, the process's subscription is a channel of its own (not one of the
layer's process-specific `!` channels), read in batches: the layer's `receive`
takes four Redis round trips, one after another on the event loop, for every
message, and under player load that serial pop fell behind the moves
(docs/realtime.md, "Push latency under load"). Here one round trip takes
everything queued.

Pushes that stay home: a publish made in this process (a move on one of its sockets, or a
REST move it served) hands the messages for this process's sockets straight to its fan-out
(`push_transport.Home`); Redis carries only what other processes' sockets need. Both feeds
go through the same hand-out, each in its order.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from channels.layers import BaseChannelLayer

from games import push_transport
from ops.channel_layer import ShardedRedisChannelLayer

logger = logging.getLogger(__name__)

#: Close code for sockets whose feed broke (the layer went away): clients reconnect.
CLOSE_FEED_LOST = 1011
#: The most queued messages the pump takes from Redis in one round trip.
BATCH_SIZE = 500
#: How long one blocking pop waits for a message: well inside any connection's read timeout.
BLOCK_SECONDS = 1


class Member(Protocol):
    async def push_message(self, event: dict[str, Any]) -> None: ...

    def busy(self) -> bool:
        """True while the member is doing something slow (a database read) before a push."""
        ...

    async def close(self, code: int | None = None, reason: str | None = None) -> None: ...


class Fanout:
    """This process's subscriptions on one channel layer, within one event loop."""

    def __init__(self, layer: BaseChannelLayer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.members: dict[str, set[Member]] = {}
        self.lock = asyncio.Lock()
        self.pump: asyncio.Task[None] | None = None
        self.renewer: asyncio.Task[None] | None = None
        self.waiting: set[asyncio.Task[None]] = set()
        self.home: push_transport.Home | None = None
        self.home_pump: asyncio.Task[None] | None = None

    async def join(self, group: str, member: Member) -> None:
        async with self.lock:
            if self.channel is None:
                self.channel = await self._new_channel()
                self.pump = asyncio.create_task(self._pump(self.channel))
                self.renewer = asyncio.create_task(self._renew_every(renewal_interval(self.layer)))
                if isinstance(self.layer, ShardedRedisChannelLayer):
                    self._make_home(self.channel)
            if group not in self.members:
                self.members[group] = set()
                await self.layer.group_add(group, self.channel)
            self.members[group].add(member)

    async def leave(self, group: str, member: Member) -> None:
        async with self.lock:
            members = self.members.get(group)
            if members is None or member not in members:
                return
            members.discard(member)
            if not members and self.channel is not None:
                del self.members[group]
                await self.layer.group_discard(group, self.channel)

    async def renew(self) -> None:
        """Add the process's channel to each of its groups again.

        A membership lasts `group_expiry` (a day) after its last add, and this process adds
        a group once, for its first local socket: a group that always has a socket here
        (the lobby) would stop getting pushes after a day. The in-memory layer also drops
        a channel from every group once a message waited on it past `expiry` (60 s).
        """
        async with self.lock:
            if self.channel is not None:
                for group in list(self.members):
                    await self.layer.group_add(group, self.channel)

    async def _renew_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.renew()
            except Exception:  # the layer is away: the next round tries again
                logger.warning("renewing the fan-out's groups failed", exc_info=True)

    def channel_only_for(self, group: str, member: Member) -> str | None:
        """This process's channel if `member` is its only socket in `group`, else None.

        Read from a write's thread after the write committed (see
        `push_transport.answered_directly`): a socket joining meanwhile reads the game
        after that commit, so it misses nothing the skipped push would have told it.
        """
        members = self.members.get(group)
        if members is not None and len(members) == 1 and member in members:
            return self.channel
        return None

    def _make_home(self, channel: str) -> None:
        """Take this process's own publishes from any thread, through a queue read on this
        loop (`_pump_home`), in the order they were made."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[list[dict[str, Any]]] = asyncio.Queue()

        def take(messages: list[dict[str, Any]]) -> bool:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, messages)
            except RuntimeError:  # the loop has closed (a test's): Redis carries them
                return False
            return True

        self.home = push_transport.Home(self.layer, channel, take)
        self.home_pump = asyncio.create_task(self._pump_home(queue))
        push_transport.make_home(self.home)

    async def _pump_home(self, queue: asyncio.Queue[list[dict[str, Any]]]) -> None:
        while True:
            for message in await queue.get():
                await self._hand_out(message)

    async def _new_channel(self) -> str:
        if isinstance(self.layer, ShardedRedisChannelLayer):
            return self.layer.fanout_channel()  # only this process's pump reads it
        return await self.layer.new_channel()

    async def _next_batch(self, channel: str) -> list[dict[str, Any]]:
        """The messages waiting on the channel, oldest first (waits for one when none is)."""
        layer = self.layer
        if isinstance(layer, ShardedRedisChannelLayer):
            return await layer.pop_batch(channel, BATCH_SIZE, BLOCK_SECONDS)
        return [await layer.receive(channel)]

    async def _pump(self, channel: str) -> None:
        try:
            while True:
                for message in await self._next_batch(channel):
                    await self._hand_out(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("the channel layer feed broke; closing its sockets", exc_info=True)
            await self._drop_everyone()

    async def _hand_out(self, message: dict[str, Any]) -> None:
        for member in list(self.members.get(message.get("group", ""), ())):
            if member.busy():  # it waits its turn; the other sockets do not wait for it
                task = asyncio.create_task(self._deliver(member, message))
                self.waiting.add(task)
                task.add_done_callback(self.waiting.discard)
            else:
                await self._deliver(member, message)

    async def _deliver(self, member: Member, message: dict[str, Any]) -> None:
        try:
            await member.push_message(message)
        except Exception:  # one broken socket must not starve the others
            logger.info("a push to one socket failed", exc_info=True)

    async def _drop_everyone(self) -> None:
        """Start afresh: every socket closes (its client reconnects and resyncs)."""
        async with self.lock:
            members = {member for group in self.members.values() for member in group}
            self.members.clear()
            self.channel = None
            self.pump = None
            if self.renewer is not None:
                self.renewer.cancel()
                self.renewer = None
            if self.home_pump is not None:
                push_transport.make_home(None, replacing=self.home)
                self.home_pump.cancel()
                self.home = self.home_pump = None
        for member in members:
            await member.close(CLOSE_FEED_LOST)


_fanouts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Fanout]] = (
    weakref.WeakKeyDictionary()
)


def renewal_interval(layer: BaseChannelLayer) -> float:
    """How often a fan-out renews its groups: a third of the shortest expiry that could drop
    them (a group membership's, an unread message's), a second at least."""
    expiries = [getattr(layer, name, None) for name in ("group_expiry", "expiry")]
    return max(1.0, min(float(value) for value in expiries if value) / 3)


def members_count() -> int:
    """Sockets subscribed through every fan-out of this process (a probe's figure)."""
    return sum(
        len(members)
        for per_layer in list(_fanouts.values())
        for fanout in list(per_layer.values())
        for members in list(fanout.members.values())
    )


def fanout_for(layer: BaseChannelLayer) -> Fanout:
    """The fan-out of `layer` in the running event loop (one per loop: tests run many)."""
    per_layer = _fanouts.setdefault(asyncio.get_running_loop(), {})
    fanout = per_layer.get(id(layer))
    if fanout is None or fanout.layer is not layer:
        fanout = per_layer[id(layer)] = Fanout(layer)
    return fanout
