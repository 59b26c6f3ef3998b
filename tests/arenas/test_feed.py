"""The arena feed through the whole ASGI stack: a snapshot per viewer, standings pushed as
games end, a burst of finishes coalesced into one push, the end, 4404 for a guessed link."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from api.realtime import arena_feed
from api.realtime.consumers import CLOSE_NO_GAME
from games.arenas import play
from tests.realtime.wire import Socket
from tests.support.arenas import Clock, arena_on_known_deals, win_current
from tests.support.play import post, winning_line
from tests.support.races import ok

pytestmark = pytest.mark.django_db(transaction=True)


def test_players_and_spectators_get_their_view_and_a_burst_costs_one_push(
    clock: Clock, alice: User, bob: User, settings: Any
) -> None:
    settings.ARENA_PUSH_INTERVAL_MS = 3_600_000  # no tick of its own: the test ticks
    arena = arena_on_known_deals()
    play.join(alice, arena)
    play.join(bob, arena)
    _, raw = ApiToken.issue(bob, "feed")

    async def scenario() -> None:
        async with (
            Socket(f"/ws/v1/arenas/{arena.pk}/?token={raw}") as bobs,
            Socket(f"/ws/v1/arenas/{arena.pk}/") as spectator,
        ):
            assert (await bobs.expect("hello"))["d"] == {"username": "bob", "owner": False}
            first = await bobs.expect("arena")
            assert first["d"]["players"] == 2 and first["d"]["mine"]["points"] == 0
            assert first["d"]["mine"]["game"] is not None
            await spectator.expect("hello")
            watched = await spectator.expect("arena")
            assert watched["d"]["mine"] is None and watched["v"] == first["v"]

            for _ in range(3):  # a burst of finishes between two ticks
                await sync_to_async(win_current)(alice, arena)
            await arena_feed._watches[arena.pk].tick()
            await arena_feed._watches[arena.pk].tick()  # nothing changed since: no push

            pushed = await bobs.expect("arena")
            assert pushed["v"] == first["v"] + 6  # three games ended, three dealt
            top = pushed["d"]["rows"][0]
            assert (top["username"], top["points"], top["in_a_row"]) == ("alice", 8, 3)
            assert pushed["d"]["mine"]["rank"] == 2
            assert [row["username"] for row in pushed["d"]["around"]] == ["alice", "bob"]
            assert (await spectator.expect("arena"))["v"] == pushed["v"]
            for socket in (bobs, spectator):
                await socket.send({"t": "ping"})
                assert (await socket.receive())["t"] == "pong"  # no second push came

            clock.move(minutes=30)
            await arena_feed._watches[arena.pk].tick()  # the feed's tick settles the end
            final = await spectator.expect("arena")
            assert final["d"]["status"] == "finished" and final["d"]["seconds_left"] == 0

    async_to_sync(scenario)()
    assert arena.pk not in arena_feed._watches  # the last socket gone, its watch stops


def test_the_feed_pushes_on_its_own_interval(clock: Clock, alice: User, settings: Any) -> None:
    settings.ARENA_PUSH_INTERVAL_MS = 50
    arena = arena_on_known_deals()
    play.join(alice, arena)

    async def scenario() -> None:
        async with Socket(f"/ws/v1/arenas/{arena.pk}/") as spectator:
            await spectator.expect("hello")
            await spectator.expect("arena")
            await sync_to_async(win_current)(alice, arena)
            pushed = await spectator.expect("arena")
            assert pushed["d"]["rows"][0]["points"] == 2

    async_to_sync(scenario)()


def test_a_private_arena_by_its_number_is_no_feed(clock: Clock) -> None:
    arena = arena_on_known_deals(private=True)

    async def scenario() -> None:
        async with Socket(f"/ws/v1/arenas/{arena.pk}/") as guessed:
            assert await guessed.closed_with() == CLOSE_NO_GAME
        async with Socket(f"/ws/v1/arenas/{arena.token}/") as linked:
            await linked.expect("hello")
            assert (await linked.expect("arena"))["d"]["arena"] == arena.token

    async_to_sync(scenario)()


def test_a_client_holding_only_arena_play_follows_its_standings_and_plays_on_the_game_socket(
    clock: Clock, alice: User
) -> None:
    arena = arena_on_known_deals()
    _, raw = ApiToken.issue(alice, "arena client", ["arena:play"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    game = ok(post(client, f"/api/v1/arenas/{arena.pk}/join", {}), 201)["game"]

    async def scenario() -> None:
        async with Socket(f"/ws/v1/arenas/{arena.pk}/?token={raw}") as standings:
            await standings.expect("hello")
            assert (await standings.expect("arena"))["d"]["mine"]["game"] == game["id"]
        async with Socket(f"/ws/v1/games/{game['id']}/?token={raw}") as table:
            assert (await table.expect("hello"))["d"]["owner"] is True
            await table.expect("state")
            move = {"move": winning_line()[1][0], "version": 0}
            await table.send({"t": "move", "id": "m1", "d": move})
            answer = await table.expect("answer")
            assert answer["id"] == "m1" and answer["d"]["version"] == 1

    async_to_sync(scenario)()
    assert ok(client.get(f"/api/v1/games/{game['id']}"))["code"] is None
