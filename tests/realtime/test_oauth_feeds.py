"""The feeds take OAuth access tokens too: scope checked, closed on revocation."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import ApiToken
from api.realtime.consumers import CLOSE_BAD_TOKEN, CLOSE_MISSING_SCOPE
from tests.realtime.wire import Socket
from tests.support.oauth import obtain_tokens, register_app, signed_in
from tests.support.play import new_game, token_client

pytestmark = pytest.mark.django_db(transaction=True)


def tokens_for(alice: User, scopes: str) -> tuple[str, dict[str, Any]]:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    return client_id, obtain_tokens(player, client_id, scopes)


def test_an_oauth_token_opens_the_feed_and_its_revocation_closes_it(alice: User) -> None:
    game = new_game(token_client(alice))
    client_id, tokens = tokens_for(alice, "game:read")
    revoke = {"token": tokens["access_token"], "client_id": client_id}

    async def scenario() -> None:
        async with Socket(f"/ws/v1/games/{game['id']}/?token={tokens['access_token']}") as app:
            assert (await app.expect("hello"))["d"] == {"username": "alice", "owner": True}
            await app.expect("state")
            answer = await sync_to_async(Client().post)("/oauth/revoke_token/", revoke)
            assert answer.status_code == 200
            assert await app.closed_with() == CLOSE_BAD_TOKEN

    async_to_sync(scenario)()


@pytest.mark.parametrize("kind", ["oauth", "personal"])
def test_a_token_without_game_read_is_closed_with_4430(alice: User, kind: str) -> None:
    game = new_game(token_client(alice))
    if kind == "oauth":
        raw = tokens_for(alice, "account:read")[1]["access_token"]
    else:
        raw = ApiToken.issue(alice, "settings only", ["account:read"])[1]

    async def scenario() -> None:
        for path in (f"/ws/v1/games/{game['id']}/", "/ws/v1/lobby/"):
            async with Socket(f"{path}?token={raw}") as refused:
                assert await refused.closed_with() == CLOSE_MISSING_SCOPE

    async_to_sync(scenario)()
