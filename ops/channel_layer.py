"""The Redis channel layer, sharded over several servers without losing direct messages.

channels_redis 4 sends a message for a process-specific channel (``specific.<process>!<id>``)
to the shard its full name hashes to, but its receive loop reads the shard of the name up to
``!`` (django/channels#1492): with two or more hosts about half of those messages, the
readiness probe's and each socket's own (token revocation), went where nobody reads. Hashing
the process part only, as receive and group_send already do, puts both ends on one shard.
"""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer


class ShardedRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """RedisChannelLayer whose shard for a process-specific channel is its process's."""

    def consistent_hash(self, value: str | bytes) -> int:
        if isinstance(value, str) and "!" in value:
            value = self.non_local_name(value)
        shard: int = super().consistent_hash(value)
        return shard
