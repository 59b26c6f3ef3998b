"""A queued hint's answer goes to the owner's sockets on the game's feed, to no one else."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User

from accounts.models import ApiToken
from tests.realtime.wire import Socket
from tests.support.play import new_game, post, token_client, winning_line
from tests.support.tasks import run_queued_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def socket(user: User, game_id: int) -> Socket:
    _, raw = ApiToken.issue(user, "websocket")
    return Socket(f"/ws/v1/games/{game_id}/?token={raw}")


def test_the_owner_hears_the_queued_hint_and_a_spectator_does_not(alice: User, bob: User) -> None:
    client = token_client(alice)
    code, _ = winning_line()
    game: dict[str, Any] = new_game(client, code=code)
    sockets = socket(alice, game["id"]), socket(bob, game["id"])

    async def scenario() -> None:
        async with sockets[0] as owner, sockets[1] as spectator:
            for watcher in (owner, spectator):
                await watcher.expect("hello")
                await watcher.expect("state")
            asked = await sync_to_async(post)(client, f"/api/v1/games/{game['id']}/hint", {})
            assert asked.status_code == 202
            await sync_to_async(run_queued_tasks)("assists")
            pushed = await owner.expect("hint")
            assert "v" not in pushed
            assert pushed["d"]["version"] == 0 and pushed["d"]["status"] == "winnable"
            assert pushed["d"]["move"] in game["legal_moves"]
            assert await spectator.communicator.receive_nothing(timeout=0.5)

    async_to_sync(scenario)()
