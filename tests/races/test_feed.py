"""The race feed through the whole ASGI stack (in-memory layer): snapshot, progress in version
order, resync, presence, and 4404 for a room that does not exist."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import User

from accounts.models import ApiToken
from api.realtime.consumers import CLOSE_NO_GAME
from games import push_transport, pushes
from games.races.models import Racer
from tests.realtime.wire import Socket, hidden_cards
from tests.support.play import token_client, winning_line
from tests.support.races import my_game, play_line, running_race

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_racer_follows_the_race_and_is_present_while_connected(alice: User, bob: User) -> None:
    alice_api, bob_api = token_client(alice), token_client(bob)
    room = running_race(alice_api, bob_api)
    game = my_game(alice_api, room)
    theirs = my_game(bob_api, room)
    _, raw = ApiToken.issue(bob, "feed")
    line = winning_line()[1]

    async def scenario() -> None:
        secret = await hidden_cards(theirs)
        async with Socket(f"/ws/v1/races/{room.lower()}/?token={raw}") as socket:
            hello = await socket.expect("hello")
            assert hello["d"] == {"username": "bob", "owner": True}
            snapshot = await socket.expect("race", secret)
            assert snapshot["d"]["racers"][1]["state"] == "playing"  # bob, present
            await sync_to_async(play_line)(alice_api, game, line[:3])
            # Bob's own presence push is older than the snapshot: never sent after it.
            progress = [await socket.receive(secret) for _ in range(3)]
            assert [m["t"] for m in progress] == ["race-progress"] * 3
            assert [m["v"] for m in progress] == [snapshot["v"] + 1 + i for i in range(3)]
            assert [m["d"]["racer"]["moves"] for m in progress] == [1, 2, 3]
            assert progress[-1]["d"]["racer"]["player"] == "alice"
            await socket.send({"t": "resync"})
            again = await socket.expect("race", secret)
            assert again["v"] == progress[-1]["v"] and again["d"]["code"] is None

    async_to_sync(scenario)()
    assert not Racer.objects.get(player=bob, race__room=room).connected


def test_pushes_reach_a_racer_in_version_order_each_once(alice: User, bob: User) -> None:
    """Pushes are published on commit from many threads and processes: a late one, an early
    one and a repeat all come; the feed sends each version once, in order."""
    alice_api, bob_api = token_client(alice), token_client(bob)
    room = running_race(alice_api, bob_api)
    _, raw = ApiToken.issue(bob, "feed")
    layer = get_channel_layer()
    assert layer is not None
    group = pushes.race_group(room)

    async def push(version: int) -> None:
        envelope = {"v": version, "t": "race-progress", "d": {"version": version}}
        await layer.group_send(group, push_transport.layer_message(group, envelope))

    async def scenario() -> None:
        async with Socket(f"/ws/v1/races/{room}/?token={raw}") as socket:
            await socket.expect("hello")
            snapshot = await socket.expect("race")
            start = snapshot["v"]
            for version in (start, start + 2, start + 1, start + 1, start + 2, start + 3):
                await push(version)
            got = [await socket.receive() for _ in range(3)]
            assert [(m["t"], m["v"]) for m in got] == [
                ("race-progress", start + 1),
                ("race-progress", start + 2),
                ("race-progress", start + 3),
            ]
            await socket.send({"t": "ping"})
            assert (await socket.receive())["t"] == "pong"  # nothing else came between

    async_to_sync(scenario)()


def test_a_room_that_does_not_exist_closes_with_4404(db: None) -> None:
    async def scenario() -> None:
        async with Socket("/ws/v1/races/NOROOM/") as refused:
            assert await refused.closed_with() == CLOSE_NO_GAME

    async_to_sync(scenario)()
