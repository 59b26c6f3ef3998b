"""Websocket paths that name no feed (a hostile room code, an unknown path) close with 4404.

Before, a NUL byte in a room code reached PostgreSQL (a DataError in the consumer) and
an unknown path raised in Channels' router: either way the handshake died with no code.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from api.realtime.consumers import CLOSE_NO_GAME
from tests.realtime.wire import Socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "path",
    [
        "/ws/v1/races/a%00b/",
        "/ws/v1/races/%00/",
        "/ws/v1/races/ABC%00EF/",
        "/ws/v1/races/%ED%A0%80/",
        "/ws/v1/races/ABCDE0/",
        "/ws/v1/races/" + "x" * 5_000 + "/",
        "/ws/v1/games/%00/",
        "/ws/v1/nothing/",
        "/ws/v2/lobby/",
        "/",
    ],
)
def test_a_path_that_names_no_feed_closes_with_4404(alice: User, path: str) -> None:
    _, raw = ApiToken.issue(alice, "feed")

    async def scenario() -> None:
        for query in ("", f"?token={raw}"):
            async with Socket(path + query) as refused:
                assert await refused.closed_with() == CLOSE_NO_GAME

    async_to_sync(scenario)()


def test_a_room_code_in_lower_case_still_opens_its_feed(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    room = client.post("/api/v1/races", {"private": True}, format="json").json()["room"]

    async def scenario() -> None:
        async with Socket(f"/ws/v1/races/{room.lower()}/") as feed:
            assert (await feed.expect("hello"))["t"] == "hello"
            assert (await feed.expect("race"))["d"]["room"] == room

    async_to_sync(scenario)()
