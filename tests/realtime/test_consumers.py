"""The websocket feeds end to end through the ASGI stack, with the in-memory channel layer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken, SignedInSession
from api.realtime.consumers import CLOSE_BAD_TOKEN, CLOSE_NO_GAME, CLOSE_PRIVATE_GAME
from games import days, push_transport, services
from games.models import Game
from tests.realtime.wire import CODE, Socket, hidden_cards
from tests.support.play import new_game, post, winning_line
from tests.support.races import my_game, running_race

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(scenario)()


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    """A state minus the running clock, which moves between two reads."""
    return {key: value for key, value in state.items() if key != "elapsed_seconds"}


def game_path(game_id: int) -> str:
    return f"/ws/v1/games/{game_id}/"


async def play(client: APIClient, game_id: int, version: int) -> tuple[str, dict[str, Any]]:
    """Post the first legal move over REST; the move and the answer's state."""
    state = (await sync_to_async(client.get)(f"/api/v1/games/{game_id}")).json()
    body = {"move": state["legal_moves"][0], "version": version}
    response = await sync_to_async(post)(client, f"/api/v1/games/{game_id}/moves", body)
    assert response.status_code == 200, response.content
    return body["move"], dict(response.json())


async def opened(socket: Socket) -> dict[str, Any]:
    """Skip the hello; the opening state."""
    await socket.expect("hello")
    return await socket.expect("state")


def test_an_anonymous_spectator_gets_hello_then_the_rest_state(game: dict[str, Any]) -> None:
    rest = APIClient().get(f"/api/v1/games/{game['id']}").json()

    async def scenario() -> None:
        hidden = await hidden_cards(game["id"])
        async with Socket(game_path(game["id"])) as spectator:
            hello = await spectator.receive(hidden)
            assert hello == {"t": "hello", "d": {"username": None, "owner": False}}
            state = await spectator.expect("state", hidden)
            assert state["v"] == 0
            # the public state, as REST's without the help its reader may ask (a reader's own)
            assert state["d"] == {key: value for key, value in rest.items() if key != "help"}

    run(scenario)


def test_the_session_cookie_identifies_the_owner(alice: User, game: dict[str, Any]) -> None:
    browser = Client()
    browser.force_login(alice)
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    cookie = (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())

    async def scenario() -> None:
        async with Socket(game_path(game["id"]), [cookie]) as tab:
            assert (await tab.expect("hello"))["d"] == {"username": "alice", "owner": True}

    run(scenario)


@pytest.mark.parametrize("where", ["query", "header"])
def test_an_api_token_identifies_the_player(
    where: str, alice: User, bob: User, game: dict[str, Any]
) -> None:
    def socket(user: User) -> Socket:
        _, raw = ApiToken.issue(user, "websocket")
        if where == "query":
            return Socket(f"{game_path(game['id'])}?token={raw}")
        return Socket(game_path(game["id"]), [(b"authorization", f"Bearer {raw}".encode())])

    sockets = socket(alice), socket(bob)

    async def scenario() -> None:
        async with sockets[0] as mine, sockets[1] as theirs:
            assert (await mine.expect("hello"))["d"] == {"username": "alice", "owner": True}
            assert (await theirs.expect("hello"))["d"] == {"username": "bob", "owner": False}
            assert (await theirs.expect("state"))["v"] == 0

    run(scenario)


@pytest.mark.parametrize(
    ("query", "headers"),
    [("?token=yk_not-a-token", []), ("", [(b"authorization", b"Bearer yk_not-a-token")])],
)
def test_a_bad_token_closes_with_4401(
    query: str, headers: list[tuple[bytes, bytes]], game: dict[str, Any]
) -> None:
    async def scenario() -> None:
        async with Socket(game_path(game["id"]) + query, headers) as refused:
            assert await refused.closed_with() == CLOSE_BAD_TOKEN

    run(scenario)


def test_a_missing_game_closes_with_4404(game: dict[str, Any]) -> None:
    async def scenario() -> None:
        async with Socket(game_path(game["id"] + 1000)) as refused:
            assert await refused.closed_with() == CLOSE_NO_GAME

    run(scenario)


def test_another_players_running_daily_game_cannot_be_watched(
    alice: User, bob: User, owner: APIClient, settings: Any
) -> None:
    settings.DAILY_SOLVER_NODES = 20_000
    daily_game = owner.post("/api/v1/daily/play").json()
    _, bob_token = ApiToken.issue(bob, "watcher")
    _, alice_token = ApiToken.issue(alice, "player")

    async def scenario() -> None:
        path = game_path(daily_game["id"])
        async with Socket(f"{path}?token={bob_token}") as refused:
            assert await refused.closed_with() == CLOSE_PRIVATE_GAME
        async with Socket(path) as anonymous:
            assert await anonymous.closed_with() == CLOSE_PRIVATE_GAME
        async with Socket(f"{path}?token={alice_token}") as player:
            state = await opened(player)
            assert state["d"]["code"] is None

    run(scenario)


def test_one_process_subscribes_once_per_game_however_many_watch(
    owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]

    async def scenario() -> None:
        layer = cast(InMemoryChannelLayer, get_channel_layer())  # the tests' layer
        async with Socket(game_path(gid)) as first, Socket(game_path(gid)) as second:
            await opened(first)
            await opened(second)
            assert len(layer.groups[f"game-{gid}"]) == 1
            await play(owner, gid, version=0)
            hidden = await hidden_cards(gid)
            assert (await first.expect("move", hidden))["v"] == 1
            assert (await second.expect("move", hidden))["v"] == 1
        assert f"game-{gid}" not in layer.groups

    run(scenario)


def test_a_rest_move_reaches_every_watcher_with_the_next_version(
    alice: User, owner: APIClient, game: dict[str, Any]
) -> None:
    _, raw = ApiToken.issue(alice, "other device")
    gid = game["id"]

    async def scenario() -> None:
        async with (
            Socket(game_path(gid)) as spectator,
            Socket(f"{game_path(gid)}?token={raw}") as other_device,
        ):
            for socket in (spectator, other_device):
                await opened(socket)
            move, answer = await play(owner, gid, version=0)
            hidden = await hidden_cards(gid)
            for socket in (spectator, other_device):
                push = await socket.expect("move", hidden)
                assert push["v"] == 1
                assert push["d"]["move"] == move
                assert without_clock(push["d"]["state"]) == without_clock(answer)
                assert push["d"]["kind"] == "move"
                assert push["d"]["intent"] == "move"

    run(scenario)


def test_undo_and_abandon_arrive_as_undo_and_finished(
    owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]

    async def scenario() -> None:
        async with Socket(game_path(gid)) as spectator:
            await opened(spectator)
            await play(owner, gid, version=0)
            moved = await spectator.expect("move", await hidden_cards(gid))
            undo = await sync_to_async(post)(owner, f"/api/v1/games/{gid}/undo", {"version": 1})
            assert undo.status_code == 200
            undone = await spectator.expect("undo", await hidden_cards(gid))
            assert (undone["v"], undone["d"]["undone"]) == (2, moved["d"]["move"])
            assert without_clock(undone["d"]["state"]) == without_clock(undo.json())
            gone = await sync_to_async(post)(owner, f"/api/v1/games/{gid}/abandon", {"version": 2})
            assert gone.status_code == 200
            finished = await spectator.expect("finished", await hidden_cards(gid))
            assert (finished["v"], finished["d"]["status"]) == (3, "abandoned")

    run(scenario)


def test_a_won_game_streams_every_move_then_finished(alice: User, owner: APIClient) -> None:
    code, moves = winning_line()
    gid = new_game(owner, code=code)["id"]

    async def scenario() -> None:
        async with Socket(game_path(gid)) as spectator:
            await opened(spectator)
            for version, move in enumerate(moves):
                await sync_to_async(services.play_move)(alice, gid, move=move, version=version)
                push = await spectator.expect("move", await hidden_cards(gid))
                assert (push["v"], push["d"]["move"]) == (version + 1, move)
            finished = await spectator.expect("finished")
            assert (finished["v"], finished["d"]["status"]) == (len(moves), "won")
            assert finished["d"]["state"]["legal_moves"] == []

    run(scenario)


def test_pushes_delivered_out_of_order_reach_the_client_in_order(
    owner: APIClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = game["id"]
    held: list[tuple[str, dict[str, Any]]] = []
    deliver = push_transport._send

    async def scenario() -> None:
        async with Socket(game_path(gid)) as spectator:
            await opened(spectator)
            monkeypatch.setattr(push_transport, "_send", held.extend)
            await play(owner, gid, version=0)
            await play(owner, gid, version=1)
            monkeypatch.undo()
            pushes = [(group, envelope) for group, envelope in held if group == f"game-{gid}"]
            for push in reversed(pushes):
                await sync_to_async(deliver)([push])
            hidden = await hidden_cards(gid)
            assert [(await spectator.expect("move", hidden))["v"] for _ in pushes] == [1, 2]

    run(scenario)


def test_a_lost_push_is_made_good_by_a_fresh_state(
    owner: APIClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = game["id"]

    async def scenario() -> None:
        async with Socket(game_path(gid)) as spectator:
            await opened(spectator)
            monkeypatch.setattr(push_transport, "_send", lambda sends: None)
            await play(owner, gid, version=0)
            monkeypatch.undo()
            await play(owner, gid, version=1)
            hidden = await hidden_cards(gid)
            resynced = await spectator.expect("state", hidden)
            assert (resynced["v"], resynced["d"]["version"]) == (2, 2)
            await play(owner, gid, version=2)
            assert (await spectator.expect("move", await hidden_cards(gid)))["v"] == 3

    run(scenario)


def test_a_client_asking_for_resync_gets_the_current_state(
    owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]

    async def scenario() -> None:
        async with Socket(game_path(gid)) as spectator:
            await opened(spectator)
            await play(owner, gid, version=0)
            await spectator.expect("move")
            for request in ({"t": "resync"}, {"t": "resync", "since": 0}):
                await spectator.send(request)
                state = await spectator.expect("state", await hidden_cards(gid))
                assert (state["v"], state["d"]["version"]) == (1, 1)

    run(scenario)


def test_ping_unknown_and_garbled_messages(game: dict[str, Any]) -> None:
    async def scenario() -> None:
        async with Socket(game_path(game["id"])) as spectator:
            await opened(spectator)
            await spectator.send({"t": "ping"})
            assert await spectator.receive() == {"t": "pong"}
            await spectator.send({"t": "teleport", "d": "AS>F"})
            assert (await spectator.expect("error"))["d"]["code"] == "unknown-type"
            await spectator.communicator.send_to(text_data="not json")
            assert (await spectator.expect("error"))["d"]["code"] == "bad-message"

    run(scenario)


def test_the_lobby_lists_active_games_then_follows_them(owner: APIClient) -> None:
    older = new_game(owner, code=CODE)
    newer = new_game(owner)

    async def scenario() -> None:
        await play(owner, older["id"], version=0)
        async with Socket("/ws/v1/lobby/") as lobby:
            snapshot = await lobby.expect("lobby")
            assert snapshot["v"] == 0
            games = snapshot["d"]["games"]
            assert [entry["id"] for entry in games] == [older["id"], newer["id"]]
            assert "columns" not in games[0]
            started = await sync_to_async(new_game)(owner)
            assert (await lobby.expect("game-started"))["d"]["id"] == started["id"]
            await play(owner, newer["id"], version=0)
            progress = await lobby.expect("game-progress")
            assert (progress["v"], progress["d"]["id"], progress["d"]["move_count"]) == (
                1,
                newer["id"],
                1,
            )
            assert "legal_moves" not in progress["d"]
            body = {"version": 1}
            await sync_to_async(post)(owner, f"/api/v1/games/{older['id']}/abandon", body)
            finished = await lobby.expect("game-finished")
            assert (finished["v"], finished["d"]["status"]) == (2, "abandoned")

    run(scenario)


def test_an_untouched_game_replaced_by_a_new_deal_leaves_the_lobby(owner: APIClient) -> None:
    untouched = new_game(owner, code=CODE)

    async def scenario() -> None:
        async with Socket("/ws/v1/lobby/") as lobby:
            snapshot = await lobby.expect("lobby")
            assert [entry["id"] for entry in snapshot["d"]["games"]] == [untouched["id"]]
            fresh = await sync_to_async(new_game)(owner, rule="C", replaces=untouched["id"])
            assert (await lobby.expect("game-removed"))["d"] == {"id": untouched["id"]}
            assert (await lobby.expect("game-started"))["d"]["id"] == fresh["id"]

    run(scenario)


def test_the_lobby_lists_only_games_anyone_may_open(
    owner: APIClient, bob_api: APIClient, settings: Any
) -> None:
    """Race games and a running day's daily games answer 403 to watchers: never listed."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    room = running_race(owner, bob_api)
    racing = my_game(owner, room)
    daily_game = Game.objects.get(pk=new_game(owner, code=CODE)["id"])
    Game.objects.filter(pk=daily_game.pk).update(daily_date=days.today(), ranked=True)
    ordinary = new_game(owner, code=CODE)

    async def scenario() -> None:
        async with Socket("/ws/v1/lobby/") as lobby:
            snapshot = await lobby.expect("lobby")
            assert [entry["id"] for entry in snapshot["d"]["games"]] == [ordinary["id"]]
            await play(owner, racing, version=0)
            await play(owner, daily_game.pk, version=0)
            await play(owner, ordinary["id"], version=0)
            progress = await lobby.expect("game-progress")  # the first the lobby hears
            assert progress["d"]["id"] == ordinary["id"]
        for listed in snapshot["d"]["games"]:
            assert (
                await sync_to_async(APIClient().get)(f"/api/v1/games/{listed['id']}")
            ).status_code == 200

    run(scenario)


@pytest.mark.parametrize("where", ["query", "header"])
def test_revoking_a_token_closes_its_sockets_with_4401(
    where: str, alice: User, owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]
    revoked, raw = ApiToken.issue(alice, "lost phone")
    _, kept = ApiToken.issue(alice, "laptop")
    if where == "query":
        lost = Socket(f"{game_path(gid)}?token={raw}")
    else:
        lost = Socket(game_path(gid), [(b"authorization", f"Bearer {raw}".encode())])
    browser = APIClient()
    browser.force_login(alice)

    async def scenario() -> None:
        async with lost, Socket(f"{game_path(gid)}?token={kept}") as laptop:
            await opened(lost)
            await opened(laptop)
            response = await sync_to_async(browser.delete)(f"/api/v1/tokens/{revoked.pk}")
            assert response.status_code == 204
            assert await lost.closed_with() == CLOSE_BAD_TOKEN
            await play(owner, gid, version=0)
            assert (await laptop.expect("move"))["v"] == 1

    run(scenario)


def session_cookie(browser: Client) -> tuple[bytes, bytes]:
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_key(browser)}".encode())


def session_key(browser: Client) -> str:
    return str(browser.cookies[settings.SESSION_COOKIE_NAME].value)


@pytest.mark.parametrize("how", ["this one", "everywhere else"])
def test_signing_a_session_out_from_another_closes_its_sockets_with_4401(
    how: str, alice: User, owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]
    stolen, laptop = Client(), APIClient()
    stolen.force_login(alice)
    laptop.force_login(alice)
    listed = SignedInSession.objects.get(session_id=session_key(stolen)).pk

    async def scenario() -> None:
        async with (
            Socket(game_path(gid), [session_cookie(stolen)]) as lost,
            Socket(game_path(gid), [session_cookie(laptop)]) as kept,
        ):
            await opened(lost)
            await opened(kept)
            if how == "this one":
                response = await sync_to_async(laptop.delete)(f"/api/v1/me/sessions/{listed}")
            else:
                response = await sync_to_async(laptop.post)("/api/v1/me/sessions/sign-out-others")
            assert response.status_code in (200, 204)
            assert await lost.closed_with() == CLOSE_BAD_TOKEN
            await play(owner, gid, version=0)
            assert (await kept.expect("move"))["v"] == 1

    run(scenario)


def test_deleting_a_player_closes_the_sockets_of_their_tokens(
    bob: User, game: dict[str, Any]
) -> None:
    _, raw = ApiToken.issue(bob, "bot")

    async def scenario() -> None:
        async with Socket(f"{game_path(game['id'])}?token={raw}") as bot:
            await opened(bot)
            await sync_to_async(bob.delete)()
            assert await bot.closed_with() == CLOSE_BAD_TOKEN

    run(scenario)
