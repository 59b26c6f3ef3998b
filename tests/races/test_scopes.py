"""The scopes a racing client needs (docs/api.md, "Scopes"): `race:play` joins, readies, reads
its race and plays its race game, and nothing else; `game:play` plays ordinary games and no
race game; `game:read` watches races and joins none."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.realtime.wire import Socket
from tests.support.play import new_game, post, winning_line
from tests.support.races import my_game, ok, open_room, refused


def holding(player: User, *scopes: str) -> tuple[APIClient, str]:
    """A client with a personal token of exactly `scopes`, and the raw token."""
    _, raw = ApiToken.issue(player, "scoped", scopes)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client, raw


@pytest.mark.django_db(transaction=True)
def test_race_play_alone_is_all_a_racing_client_needs(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    racer, raw = holding(alice, "race:play")
    assert ok(racer.get("/api/v1/races")) == []
    assert ok(racer.get("/api/v1/races/queue"))["waiting"] is False
    room = open_room(bob_api)
    ok(post(racer, f"/api/v1/races/{room}/join", {}))
    for client in (racer, bob_api):
        ok(post(client, f"/api/v1/races/{room}/ready", {}))
    race = ok(racer.get(f"/api/v1/races/{room}"))
    game = race["me"]["game"]
    assert ok(racer.get(f"/api/v1/games/{game}"))["version"] == 0
    first = winning_line()[1][0]
    ok(post(racer, f"/api/v1/games/{game}/moves", {"move": first, "version": 0}))
    ok(post(racer, f"/api/v1/games/{game}/undo", {"version": 1}))

    async def feeds() -> None:
        async with Socket(f"/ws/v1/races/{room}/?token={raw}") as feed:
            await feed.expect("hello")
            assert (await feed.expect("race"))["d"]["room"] == room
        async with Socket(f"/ws/v1/games/{game}/?token={raw}") as feed:
            assert (await feed.expect("hello"))["d"]["owner"] is True
            await feed.expect("state")
            await feed.send({"t": "undo", "id": "u1", "d": {"version": 2}})
            assert (await feed.expect("error"))["d"]["code"] == "nothing-to-undo"

    async_to_sync(feeds)()

    ordinary = new_game(alice_api)["id"]
    for path, body in (
        (f"/api/v1/games/{ordinary}/moves", {"move": "AS>F", "version": 0}),
        ("/api/v1/games", {}),
    ):
        answer = post(racer, path, body)
        refused(answer, 403, "missing-scope")
        assert answer.json()["error"]["scope"] == "game:play"
    refused(racer.get("/api/v1/games"), 403, "missing-scope")  # my games: game:read


@pytest.mark.django_db
def test_game_play_plays_no_race_game_and_game_read_joins_no_race(
    alice: User, bob: User, bob_api: APIClient
) -> None:
    player, _ = holding(alice, "game:read", "game:play")
    room = open_room(bob_api)
    answer = post(player, f"/api/v1/races/{room}/join", {})
    refused(answer, 403, "missing-scope")
    assert answer.json()["error"]["scope"] == "race:play"
    assert ok(player.get(f"/api/v1/races/{room}"))["room"] == room  # watching is reading

    racer, _ = holding(bob, "race:play", "game:read")
    started = post(racer, f"/api/v1/races/{room}/start", {})  # alone: too few, scope is fine
    refused(started, 409, "too-few-racers")
    both = APIClient()
    both.force_authenticate(alice)
    ok(post(both, f"/api/v1/races/{room}/join", {}))
    for client in (both, bob_api):
        ok(post(client, f"/api/v1/races/{room}/ready", {}))
    game = my_game(both, room)
    answer = post(player, f"/api/v1/games/{game}/moves", {"move": "AS>F", "version": 0})
    refused(answer, 403, "missing-scope")
    assert answer.json()["error"]["scope"] == "race:play"
