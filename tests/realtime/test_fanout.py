"""A process's fan-out on a real Redis: a burst of pushes queued at once reaches its sockets
whole, in order, once each, and only the sockets of the push's group."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer

from api.realtime.fanout import Fanout
from games import push_transport
from tests.support.redis import redis_server

pytestmark = pytest.mark.redis

BURST = 80  # queued at once, within the layer's default capacity (100): every one must arrive


class Recorder:
    """A socket stand-in: notes the versions it is handed; holds the pump until `opened`
    (a busy event loop), so the rest of the burst queues up in Redis meanwhile."""

    def __init__(self) -> None:
        self.versions: list[int] = []
        self.arrived = asyncio.Event()
        self.opened = asyncio.Event()
        self.expected = 0

    async def push_message(self, event: dict[str, Any]) -> None:
        await self.opened.wait()
        self.versions.append(event["v"])
        if len(self.versions) >= self.expected:
            self.arrived.set()

    def busy(self) -> bool:
        return False

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        raise AssertionError("the feed must not break")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as redis:
        yield redis.url


def publish_burst(layer: RedisChannelLayer, group: str, versions: range) -> None:
    """What the move path does after commit, from a sync thread: one publish per version."""
    publisher = push_transport._RedisPublisher(layer)
    for version in versions:
        envelope = {"v": version, "t": "move", "d": {}}
        publisher.send([(group, push_transport.layer_message(group, envelope))])


def test_a_burst_of_queued_pushes_arrives_whole_in_order_and_only_in_its_group(
    redis_url: str,
) -> None:
    async def scenario() -> tuple[list[int], list[int]]:
        layer = RedisChannelLayer(hosts=[{"address": redis_url}])
        fanout = Fanout(layer)
        watcher, bystander = Recorder(), Recorder()
        watcher.expected = BURST
        await fanout.join("game-1", watcher)
        await fanout.join("game-2", bystander)
        await asyncio.to_thread(publish_burst, layer, "game-1", range(1, BURST + 1))
        watcher.opened.set()
        await asyncio.wait_for(watcher.arrived.wait(), 30)
        await fanout.leave("game-1", watcher)
        await fanout.leave("game-2", bystander)
        assert fanout.pump is not None
        fanout.pump.cancel()
        await layer.close_pools()
        return watcher.versions, bystander.versions

    watched, bystood = asyncio.run(scenario())
    assert watched == list(range(1, BURST + 1))
    assert bystood == []
