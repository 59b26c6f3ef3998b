"""A process's fan-out on a real Redis: a burst of pushes queued at once reaches its sockets
whole, in order, once each, and only the sockets of the push's group."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio
from channels.layers import InMemoryChannelLayer

from api.realtime.fanout import Fanout, renewal_interval
from games import push_transport
from ops.channel_layer import ShardedRedisChannelLayer
from tests.support.redis import redis_server

pytestmark = pytest.mark.redis

BURST = 80  # queued at once, within the layer's default capacity (100): every one must arrive


class Recorder:
    """A socket stand-in: notes the versions it is handed; holds the pump until `opened`
    (a busy event loop), so the rest of the burst queues up in Redis meanwhile."""

    def __init__(self) -> None:
        self.versions: list[int] = []
        self.events: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.opened = asyncio.Event()
        self.expected = 0

    async def push_message(self, event: dict[str, Any]) -> None:
        await self.opened.wait()
        self.versions.append(event["v"])
        self.events.append(event)
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


def publish_burst(layer: ShardedRedisChannelLayer, group: str, versions: range) -> None:
    """What the move path does after commit, from a sync thread: one publish per version."""
    publisher = push_transport._RedisPublisher(layer)
    for version in versions:
        envelope = {"v": version, "t": "move", "d": {}}
        publisher.send([(group, push_transport.layer_message(group, envelope))])


def test_a_burst_of_queued_pushes_arrives_whole_in_order_and_only_in_its_group(
    redis_url: str,
) -> None:
    async def scenario() -> tuple[list[int], list[int]]:
        layer = ShardedRedisChannelLayer(hosts=[{"address": redis_url}])
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


def test_a_publish_hands_its_own_process_s_sockets_their_push_and_redis_carries_the_rest(
    redis_url: str,
) -> None:
    """Pushes that stay home: the publishing process's fan-out gets the message itself (the
    very object, never encoded for Redis); another process's fan-out gets it through Redis."""

    Sent = list[dict[str, Any]]

    async def scenario() -> tuple[Sent, Sent, Sent]:
        layer = ShardedRedisChannelLayer(hosts=[{"address": redis_url}])
        far, home = Fanout(layer), Fanout(layer)  # another process's, then this one's
        far_watcher, home_watcher = Recorder(), Recorder()
        for watcher, fanout in ((far_watcher, far), (home_watcher, home)):
            watcher.opened.set()
            watcher.expected = 2
            await fanout.join("game-1", watcher)
        assert home.home is not None and home.home.channel == home.channel
        sends = [
            ("game-1", push_transport.layer_message("game-1", {"v": v, "t": "move", "d": {}}))
            for v in (1, 2)
        ]
        publisher = push_transport._RedisPublisher(layer)
        await asyncio.to_thread(publisher.send, sends, None, home.home)
        for watcher in (far_watcher, home_watcher):
            await asyncio.wait_for(watcher.arrived.wait(), 30)
        for fanout, watcher in ((far, far_watcher), (home, home_watcher)):
            await fanout.leave("game-1", watcher)
            for task in (fanout.pump, fanout.renewer, fanout.home_pump):
                assert task is not None
                task.cancel()
        await layer.close_pools()
        return far_watcher.events, home_watcher.events, [message for _, message in sends]

    far_events, home_events, sent = asyncio.run(scenario())
    assert far_events == home_events == sent
    assert all(got is message for got, message in zip(home_events, sent, strict=True))
    assert not any(got is message for got, message in zip(far_events, sent, strict=True))


def test_a_process_renews_its_groups_before_they_expire(redis_url: str) -> None:
    """A group stays with the process for as long as it has a socket in it: the fan-out adds
    it again before its membership (a day) or an unread message (`expiry`) could drop it."""

    async def scenario() -> list[int]:
        layer = ShardedRedisChannelLayer(hosts=[{"address": redis_url}], group_expiry=90)
        fanout = Fanout(layer)
        watcher = Recorder()
        watcher.opened.set()
        watcher.expected = 1
        await fanout.join("lobby", watcher)
        assert fanout.channel is not None and fanout.renewer is not None
        # A day later, as Redis sees it: the membership was added longer ago than its expiry.
        client = redis.asyncio.Redis.from_url(redis_url)
        key = layer.group_key("lobby")
        await client.zadd(key, {fanout.channel: time.time() - 91})
        await asyncio.to_thread(publish_burst, layer, "lobby", range(1, 2))  # lost: expired
        await fanout.renew()
        renewed = await client.zscore(key, fanout.channel)
        assert renewed is not None and renewed > time.time() - 30
        await asyncio.to_thread(publish_burst, layer, "lobby", range(2, 3))
        await asyncio.wait_for(watcher.arrived.wait(), 30)
        await fanout.leave("lobby", watcher)
        for task in (fanout.pump, fanout.renewer):
            assert task is not None
            task.cancel()
        await client.aclose()
        await layer.close_pools()
        return watcher.versions

    assert asyncio.run(scenario()) == [2]


def test_renewal_comes_well_inside_every_expiry() -> None:
    assert renewal_interval(InMemoryChannelLayer()) == 20  # its unread messages expire at 60 s
    assert renewal_interval(ShardedRedisChannelLayer(expiry=30)) == 10  # the cluster's layer
    assert renewal_interval(ShardedRedisChannelLayer(group_expiry=6, expiry=60)) == 2
