"""The Redis channel layer: sharded without losing direct messages, and the one place that
reads channels_redis's private members.

Sharding: channels_redis 4 sends a message for a process-specific channel
(``specific.<process>!<id>``) to the shard its full name hashes to, but its receive loop
reads the shard of the name up to ``!`` (django/channels#1492): with two or more hosts
about half of those messages, the readiness probe's and each socket's own (token
revocation), went where nobody reads. Hashing the process part only, as receive and
group_send already do, puts both ends on one shard.

Private members: the fan-out (api/realtime/fanout.py) pops a whole batch of its channel's
messages in one round trip, and the publisher (games/push_transport.py) writes a whole
publish in two; channels_redis offers neither, so both need its storage format (a group's
key, a channel's key and shard, its serializer). Every such use is a method here, against
the channels-redis release range pinned in pyproject.toml (the range the tests ran):
tests/realtime/test_fanout.py and test_processes.py (a real Redis, and sockets in another
process reading with the layer's own `receive`) fail if an upgrade changes the format.
"""

from __future__ import annotations

import uuid
from typing import Any

from channels_redis.core import RedisChannelLayer


class ShardedRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """RedisChannelLayer whose shard for a process-specific channel is its process's."""

    def consistent_hash(self, value: str | bytes) -> int:
        if isinstance(value, str) and "!" in value:
            value = self.non_local_name(value)
        shard: int = super().consistent_hash(value)
        return shard

    # ---- what the fan-out and the publisher need of the storage format -------------------

    def fanout_channel(self) -> str:
        """A channel of its own for one process's fan-out: no `!`, so it is its own Redis key
        (read only by `pop_batch`), on the shard the name hashes to."""
        return f"fanout.{self.client_prefix}.{uuid.uuid4().hex}"

    async def pop_batch(self, channel: str, count: int, wait: float) -> list[dict[str, Any]]:
        """Up to `count` messages queued on `channel`, oldest first, in one round trip; when
        none is queued, wait up to `wait` seconds for one."""
        key = self.prefix + channel
        connection = self.connection(self.consistent_hash(channel))
        popped = await connection.zpopmin(key, count)
        if not popped:
            found = await connection.bzpopmin(key, timeout=wait)
            popped = [] if found is None else [(found[1], found[2])]
        messages = [self.deserialize(content) for content, _ in popped]
        for message in messages:
            message.pop("__asgi_channel__", None)  # the layer's routing list: only our channel
        return messages

    def group_key(self, group: str) -> str:
        """The Redis key of a group's sorted set of member channels."""
        key: str = self._group_key(group)
        return key

    def channel_messages(
        self, channels: list[str], message: dict[str, Any]
    ) -> tuple[dict[int, list[str]], dict[str, bytes], dict[str, int]]:
        """For each shard its channel keys, each key's serialized message and capacity: the
        form the layer's own `receive` accepts."""
        mapped: tuple[dict[int, list[str]], dict[str, bytes], dict[str, int]] = (
            self._map_channel_keys_to_connection(channels, message)
        )
        return mapped
