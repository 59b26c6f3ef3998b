"""The channel layer over two real redis-servers delivers a message sent to a process-specific
channel (``specific.<process>!<socket>``): the readiness probe and every consumer's own channel
(token revocation) depend on it. channels_redis 4 picks the sending shard by the full channel
name but the receiving one by the name up to ``!`` (django/channels#1492), so about half of such
messages went to the shard nobody reads."""

from __future__ import annotations

import asyncio

import pytest

from ops.channel_layer import ShardedRedisChannelLayer
from tests.support.redis import redis_shards

pytestmark = pytest.mark.redis

CHANNELS = 24  # each lands on either shard, one chance in two: all shards are crossed


def test_messages_to_process_specific_channels_arrive_whichever_shard_their_name_hashes_to() -> (
    None
):
    async def round_trips(layer: ShardedRedisChannelLayer) -> list[str]:
        received = []
        for _ in range(CHANNELS):
            channel = await layer.new_channel()
            await layer.send(channel, {"type": "ops.ping", "to": channel})
            message = await asyncio.wait_for(layer.receive(channel), timeout=10)
            received.append(message["to"])
        await layer.flush()
        return received

    with redis_shards(2) as shards:
        layer = ShardedRedisChannelLayer(hosts=[server.url for server in shards.servers])
        received = asyncio.run(round_trips(layer))
    assert len(received) == CHANNELS
