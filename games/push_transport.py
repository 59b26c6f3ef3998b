"""Sending pushes to the channel layer, after the transaction commits.

`games.pushes` builds the envelopes (the protocol); this module only carries
them. A push is best-effort and bounded in time: if the layer is down or slow
the move still stands, the failure is logged, and clients catch up by resync.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction

from ops import redis_clients
from ops.channel_layer import ShardedRedisChannelLayer

logger = logging.getLogger(__name__)

# (group, channel-layer message) pairs published together, in this order, after one commit.
Sends = list[tuple[str, dict[str, Any]]]

# A move never waits longer than this for the channel layer: a hung or unreachable
# Redis must not hold the player's request.
PUSH_TIMEOUT_SECONDS = 0.5

#: The channel-layer event type every push travels as (the consumers' `dispatch` takes it).
LAYER_TYPE = "push.message"
#: The event type of an unversioned message for the game owner's sockets only.
OWNER_LAYER_TYPE = "push.owner"

#: A group's member channel → None, or the channel that needs no push (see `answered_directly`).
AnsweredChannel = Callable[[str], str | None]
_answered: ContextVar[AnsweredChannel | None] = ContextVar("answered_directly", default=None)


@contextmanager
def answered_directly(channel_of: AnsweredChannel) -> Iterator[None]:
    """Pushes published within skip, per group, the channel `channel_of(group)` names.

    A websocket write's answer carries the game after it: when the writer's socket is
    its process's only one in the game's group, that process would receive the push
    only to drop it. Skipped there, a move sent on the socket costs no message to its
    own worker, and no send at all when no other process watches (Redis layer only).
    """
    token = _answered.set(channel_of)
    try:
        yield
    finally:
        _answered.reset(token)


@dataclass(frozen=True)
class Home:
    """This process's fan-out on the Redis layer (api/realtime/fanout.py): its channel, and
    how to hand it a publish's messages from any thread (`take`, which queues them, in
    order, for its event loop; False when that loop has ended)."""

    layer: BaseChannelLayer
    channel: str
    take: Callable[[list[dict[str, Any]]], bool]


_home: Home | None = None


def make_home(home: Home | None, *, replacing: Home | None = None) -> None:
    """Pushes for `home.channel` are handed to it directly from now on, not sent through
    Redis (None: no longer; `replacing`: only if that home is still the one)."""
    global _home
    if replacing is None or _home is replacing:
        _home = home


# Channel keys, messages and capacities in; how many channels were full out. The same
# steps as channels_redis's group_send (drop expired messages, respect capacity, add,
# refresh expiry), for every channel of every group of one publish, in one round trip.
# Scores rise by a microsecond per message so one publish's envelopes keep their order.
_ADD_MESSAGES = """
local count = #KEYS
local now = tonumber(ARGV[2 * count + 1])
local expiry = tonumber(ARGV[2 * count + 2])
local over_capacity = 0
for i = 1, count do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[count + i]) then
        redis.call('ZADD', KEYS[i], now + i / 1000000, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


# Group keys and the expiry cutoff in; each group's members out (expired ones dropped first,
# as channels_redis's group_send does). One command, not a pipeline of two per group:
# redis-py's pipeline machinery cost more CPU than the round trip saved.
_GROUP_MEMBERS = """
local members = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, tonumber(ARGV[1]))
    members[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
end
return members
"""


class _RedisPublisher:
    """Sends a publish's messages to a RedisChannelLayer from this (sync) thread.

    Why not the layer's own async `group_send`: from sync code it needs an event
    loop in another thread, and it costs two to four Redis round trips per group.
    This keeps the layer's storage format (its group keys, channel keys and
    serializer, so its consumers read these messages as their own) but does a
    whole publish in two round trips: group members for every group at once
    (one script), then every channel's message in another. Measured in docs/operations.md.

    The layer's only way to write to a group is the async `group_send` above, so
    reading a group's members needs the group's Redis key, and writing a message the
    layer's `receive` accepts needs its storage format: ops/channel_layer.py, the one
    module that reads channels_redis's private members, gives both.
    """

    def __init__(self, layer: ShardedRedisChannelLayer) -> None:
        self.layer = layer
        for host in layer.hosts:
            if "address" not in host:
                raise ValueError("publishing needs Redis hosts given by address (REDIS_URL)")
        self.clients = [
            redis_clients.client(host["address"], PUSH_TIMEOUT_SECONDS) for host in layer.hosts
        ]
        self.scripts = [client.register_script(_ADD_MESSAGES) for client in self.clients]
        self.member_scripts = [client.register_script(_GROUP_MEMBERS) for client in self.clients]

    def send(
        self, sends: Sends, answered: AnsweredChannel | None = None, home: Home | None = None
    ) -> None:
        """Publish `sends`: to every member channel of each group, but the one `answered`
        names; the messages for `home`'s channel are handed to it, the rest go to Redis."""
        layer = self.layer
        members: dict[str, list[str]] = {}
        for index, members_of in enumerate(self.member_scripts):
            groups = list(dict.fromkeys(g for g, _ in sends if layer.consistent_hash(g) == index))
            if not groups:
                continue
            replies = members_of(
                keys=[layer.group_key(group) for group in groups],
                args=[int(time.time()) - layer.group_expiry],
            )
            for group, names in zip(groups, replies, strict=True):
                unneeded = answered(group) if answered is not None else None
                members[group] = [n for name in names if (n := name.decode()) != unneeded]
        if home is not None:
            at_home = {group for group, names in members.items() if home.channel in names}
            if at_home and home.take([message for group, message in sends if group in at_home]):
                for group in at_home:
                    members[group].remove(home.channel)
        batches: dict[int, tuple[list[str], list[bytes], list[int]]] = {}
        for group, message in sends:
            if not members[group]:
                continue
            per_connection, messages, capacities = layer.channel_messages(members[group], message)
            for index, channel_keys in per_connection.items():
                keys, payloads, limits = batches.setdefault(index, ([], [], []))
                keys.extend(channel_keys)
                payloads.extend(messages[key] for key in channel_keys)
                limits.extend(capacities[key] for key in channel_keys)
        for index, (keys, payloads, limits) in batches.items():
            over = self.scripts[index](
                keys=keys, args=[*payloads, *limits, time.time(), int(layer.expiry)]
            )
            if over:
                logger.info("%s channel(s) over capacity; their clients will resync", over)


_publishers: dict[int, _RedisPublisher] = {}
_publishers_lock = threading.Lock()


def _redis_publisher(layer: ShardedRedisChannelLayer) -> _RedisPublisher:
    """One publisher (and connection pool) per layer per process; thread-safe."""
    with _publishers_lock:
        publisher = _publishers.get(id(layer))
        if publisher is None or publisher.layer is not layer:
            publisher = _publishers[id(layer)] = _RedisPublisher(layer)
    return publisher


async def _group_send_all(layer: BaseChannelLayer, sends: Sends) -> None:
    async def send_in_order() -> None:
        for group, message in sends:
            await layer.group_send(group, message)

    await asyncio.wait_for(send_in_order(), PUSH_TIMEOUT_SECONDS)


def layer_message(group: str, envelope: Mapping[str, Any]) -> dict[str, Any]:
    """The channel-layer form: the envelope encoded once, here, plus what consumers sort by.

    Every consumer in every process forwards the same text instead of re-encoding it;
    `group` tells each process's fan-out (api/realtime/fanout.py) which sockets want it.
    """
    text = json.dumps(envelope)
    return {
        "type": LAYER_TYPE,
        "group": group,
        "v": envelope["v"],
        "t": envelope["t"],
        "text": text,
    }


def _send(sends: Sends) -> None:
    """Hand the messages to the layer, in order, within the time bound; log a failure."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if isinstance(layer, ShardedRedisChannelLayer):
            home = _home if _home is not None and _home.layer is layer else None
            _redis_publisher(layer).send(sends, _answered.get(), home)
        else:
            # In-memory: its queues belong to the consumers' loop in this same process.
            async_to_sync(_group_send_all)(layer, sends)
    except Exception:
        group, first = sends[0]
        what = f"{first['t']} v{first['v']}" if "t" in first else first["type"]
        logger.warning("push %s to %s failed; clients will resync", what, group, exc_info=True)


def publish(envelopes: list[tuple[str, Mapping[str, Any]]]) -> None:
    """Queue envelopes (in order, one hop) to be sent only once the current transaction commits.

    They are encoded after the commit, so the game's row lock is not held for it.
    """
    transaction.on_commit(lambda: _send([(g, layer_message(g, e)) for g, e in envelopes]))


def publish_to_owner(group: str, envelope: Mapping[str, Any]) -> None:
    """Queue an unversioned envelope for the owner's sockets on a game feed, sent on commit."""
    message = {"type": OWNER_LAYER_TYPE, "group": group, "text": json.dumps(envelope)}
    transaction.on_commit(lambda: _send([(group, message)]))


def send_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send a channel-layer message of another type (a consumer handles `message["type"]`)
    to `group` once the current transaction commits; best-effort like a push."""
    transaction.on_commit(lambda: _send([(group, message)]))
