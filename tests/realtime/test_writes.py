"""The owner's writes on the game's websocket: answers by id, the pushes beside them, refusals.

The behaviour both doors share (versions, retries, concurrency, secrecy) is tested once
for both in tests/api (parametrized over `tests.support.doors.DOORS`); here is what only
the socket has.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import ApiToken
from api.realtime import writes
from games.models import MoveLogEntry
from ops.kept_connections import KeptConnectionThreads
from tests.realtime.wire import Socket, hidden_cards
from tests.support.oauth import obtain_tokens, register_app, signed_in
from tests.support.play import post

pytestmark = pytest.mark.django_db(transaction=True)


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key != "elapsed_seconds"}


def path_for(game_id: int, user: User | None = None, scopes: list[str] | None = None) -> str:
    path = f"/ws/v1/games/{game_id}/"
    if user is None:
        return path
    _, raw = ApiToken.issue(user, "socket", *([scopes] if scopes is not None else []))
    return f"{path}?token={raw}"


async def opened(socket: Socket) -> dict[str, Any]:
    await socket.expect("hello")
    return await socket.expect("state")


async def reply_to(socket: Socket, request_id: str) -> dict[str, Any]:
    """The answer or error with this id (pushes of other writes may come first)."""
    while True:
        message = await socket.receive()
        if message.get("id") == request_id:
            return message


async def nothing_pending(socket: Socket) -> None:
    """Nothing is queued before a pong: what came before it was all there was."""
    await socket.send({"t": "ping"})
    assert await socket.receive() == {"t": "pong"}


def log_of(game_id: int) -> list[tuple[str, str]]:
    entries = MoveLogEntry.objects.filter(game_id=game_id).order_by("seq")
    return [(entry.kind, entry.intent) for entry in entries]


def test_the_owner_plays_on_the_socket_and_watchers_get_the_push(
    alice: User, game: dict[str, Any]
) -> None:
    gid, move = game["id"], game["legal_moves"][0]
    mine = path_for(gid, alice)

    async def scenario() -> None:
        async with Socket(mine) as player, Socket(path_for(gid)) as spectator:
            await opened(player)
            await opened(spectator)
            await player.send({"t": "move", "id": "m1", "d": {"move": move, "version": 0}})
            hidden = await hidden_cards(gid)
            answer = await player.expect("answer", hidden)
            assert (answer["id"], answer["d"]["version"]) == ("m1", 1)
            push = await spectator.expect("move", hidden)
            assert (push["v"], push["d"]["move"]) == (1, move)
            assert without_clock(push["d"]["state"]) == without_clock(answer["d"])
            await nothing_pending(player)  # the answer stood for the player's own push

    async_to_sync(scenario)()
    assert log_of(gid) == [("move", "move")]


def test_every_write_has_its_message_with_the_rest_endpoints_outcome(
    alice: User, game: dict[str, Any]
) -> None:
    gid = game["id"]
    movable = sorted({m.split(">")[0] for m in game["legal_moves"] if not m.endswith(">F")})
    buried = game["columns"][6]["face_up"][0]
    mine = path_for(gid, alice)

    async def scenario() -> None:
        async with Socket(mine) as player:
            await opened(player)
            writes: list[dict[str, Any]] = [
                {"t": "double-click", "d": {"card": movable[0], "version": 0}},
                {"t": "undo", "d": {"version": 1}},
                {"t": "tap", "d": {"card": buried, "version": 2}},
                {"t": "resign", "d": {"version": 2}},
            ]
            replies = []
            for index, write in enumerate(writes):
                await player.send({**write, "id": f"w{index}"})
                replies.append(await reply_to(player, f"w{index}"))
            assert [r["t"] for r in replies] == ["answer", "answer", "error", "answer"]
            assert [r["d"].get("version") for r in replies[:2]] == [1, 2]
            refused = replies[2]["d"]
            assert refused["status"] == 422
            assert refused["code"] in {"not-top-card", "foundation-order"}
            assert refused["rule"] and refused["message"]
            assert replies[3]["d"]["status"] == "abandoned"

    async_to_sync(scenario)()
    assert log_of(gid) == [("move", "double-click"), ("undo", "undo")]


def test_a_socket_move_sent_twice_with_its_id_is_applied_once(
    alice: User, game: dict[str, Any]
) -> None:
    gid = game["id"]
    write = {"t": "move", "id": "again", "d": {"move": game["legal_moves"][0], "version": 0}}
    mine = path_for(gid, alice)

    async def scenario() -> None:
        async with Socket(mine) as player:
            await opened(player)
            await player.send(write)
            first = await player.expect("answer")
            await player.send(write)
            second = await player.expect("answer")
            assert first["id"] == second["id"] == "again"
            assert second["d"]["version"] == 1
            assert second["d"]["columns"] == first["d"]["columns"]

    async_to_sync(scenario)()
    assert log_of(gid) == [("move", "move")]


def test_a_rest_move_and_a_socket_move_at_once_one_wins_one_is_stale(
    alice: User, owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]
    by_rest, by_socket = game["legal_moves"][:2]
    rest_post = sync_to_async(post, thread_sensitive=False)
    mine = path_for(gid, alice)

    async def scenario() -> None:
        async with Socket(mine) as player:
            await opened(player)
            body = {"move": by_rest, "version": 0}
            rest, _ = await asyncio.gather(
                rest_post(owner, f"/api/v1/games/{gid}/moves", body),
                player.send({"t": "move", "id": "s", "d": {"move": by_socket, "version": 0}}),
            )
            socket = await reply_to(player, "s")
            outcomes = sorted(
                [
                    rest.status_code,
                    200 if socket["t"] == "answer" else socket["d"]["status"],
                ]
            )
            assert outcomes == [200, 409], (rest.content, socket)
            stale = socket["d"] if socket["t"] == "error" else rest.json()["error"]
            assert stale["code"] == "stale-version"
            assert stale["state"]["version"] == 1

    async_to_sync(scenario)()
    assert log_of(gid) == [("move", "move")]


def test_a_socket_dropped_mid_move_then_retried_over_rest_is_applied_once(
    alice: User, owner: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]
    body = {"move": game["legal_moves"][0], "version": 0}
    mine = path_for(gid, alice)

    async def scenario() -> None:
        player = Socket(mine)
        await player.__aenter__()
        await opened(player)
        await player.send({"t": "move", "id": "lost", "d": body})
        await player.__aexit__()  # gone before its answer: did the move land?
        retry = await sync_to_async(post)(owner, f"/api/v1/games/{gid}/moves", body)
        assert retry.status_code == 200, retry.content
        assert retry.json()["version"] == 1

    async_to_sync(scenario)()
    assert log_of(gid) == [("move", "move")]


def test_watchers_are_told_they_cannot_play_and_stay_connected(
    alice: User, bob: User, game: dict[str, Any]
) -> None:
    gid = game["id"]
    sockets = {
        "not-authenticated": (path_for(gid), 401),
        "not-your-game": (path_for(gid, bob), 403),
        "missing-scope": (path_for(gid, alice, ["game:read"]), 403),
    }

    async def scenario() -> None:
        for code, (path, status) in sockets.items():
            async with Socket(path) as watcher:
                await opened(watcher)
                move = {"move": game["legal_moves"][0], "version": 0}
                await watcher.send({"t": "move", "id": code, "d": move})
                refused = await watcher.expect("error")
                assert refused["id"] == code
                assert (refused["d"]["code"], refused["d"]["status"]) == (code, status)
                assert refused["d"]["message"]
                await nothing_pending(watcher)

    async_to_sync(scenario)()
    assert log_of(gid) == []


def test_an_oauth_token_needs_game_play_to_write(alice: User, game: dict[str, Any]) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    tokens = {
        scopes: obtain_tokens(player, client_id, scopes)["access_token"]
        for scopes in ("game:read", "game:read game:play")
    }
    move = {"move": game["legal_moves"][0], "version": 0}

    async def scenario() -> None:
        replies = []
        for scopes, raw in tokens.items():
            async with Socket(f"/ws/v1/games/{game['id']}/?token={raw}") as app:
                await opened(app)
                await app.send({"t": "move", "id": scopes, "d": move})
                replies.append(await reply_to(app, scopes))
        assert replies[0]["t"] == "error"
        assert (replies[0]["d"]["code"], replies[0]["d"]["scope"]) == ("missing-scope", "game:play")
        assert replies[1]["t"] == "answer"

    async_to_sync(scenario)()


HOSTILE: list[tuple[str | bytes, str]] = [
    ("{not json", "bad-message"),
    ('["move"]', "bad-message"),
    (b"\xff\xfe binary", "bad-message"),
    ('{"t": "move", "id": "x", "pad": "' + "x" * 5000 + '"}', "body-too-large"),
    ('{"t": "move", "id": "x", "d": ' + "[" * 40 + "]" * 40 + "}", "json-too-deep"),
    ('{"t": "move", "id": "x", "d": {"move": "\\ud800", "version": 0}}', "invalid-unicode"),
    ('{"t": "move", "id": "x", "d": {"move": 5, "version": "x"}}', "invalid-request"),
    ('{"t": "move", "id": "x", "d": "10D>3"}', "invalid-request"),
    ('{"t": "move", "id": ["x"], "d": {"move": "10D>3", "version": 0}}', "invalid-request"),
    ('{"t": "move", "d": {"move": "10D>3", "version": 0}}', "invalid-request"),
    ('{"t": "move", "id": "x", "d": {"move": "10D-3", "version": 0}}', "invalid-move"),
    ('{"t": "tap", "id": "x", "d": {"card": "1Z", "version": 0}}', "invalid-card"),
    ('{"t": "move", "id": "x", "d": {"move": "10D>3", "version": 9}}', "stale-version"),
    ('{"t": "teleport", "id": "x"}', "unknown-type"),
    ('{"t": 5}', "unknown-type"),
]


def test_hostile_frames_get_an_error_code_and_the_socket_plays_on(
    alice: User, game: dict[str, Any]
) -> None:
    mine = path_for(game["id"], alice)

    async def scenario() -> None:
        async with Socket(mine) as player:
            await opened(player)
            for frame, code in HOSTILE:
                if isinstance(frame, bytes):
                    await player.communicator.send_to(bytes_data=frame)
                else:
                    await player.communicator.send_to(text_data=frame)
                refused = await player.expect("error")
                assert refused["d"]["code"] == code, (frame[:80], refused)
            move = {"move": game["legal_moves"][0], "version": 0}
            await player.send({"t": "move", "id": "fine", "d": move})
            assert (await player.expect("answer"))["d"]["version"] == 1

    async_to_sync(scenario)()


def backends_of_the_write_thread() -> set[int]:
    """The server processes of the test database's other clients (the write thread's among them)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return {pid for (pid,) in cursor.fetchall()}


def terminate(pids: set[int]) -> None:
    with connection.cursor() as cursor:
        for pid in pids:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_write_whose_kept_connection_was_killed_answers_503_and_the_next_one_reconnects(
    alice: User, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write thread keeps its connection between writes (ops/kept_connections.py): when
    the server ends it, that write is `database-unavailable` and the retry gets a new one."""
    one_thread = KeptConnectionThreads(1, "ws-write-test")
    shared = writes.threads
    monkeypatch.setattr(writes, "threads", one_thread)
    gid, first_move = game["id"], game["legal_moves"][0]
    mine = path_for(gid, alice)

    async def scenario() -> None:
        async with Socket(mine) as player:
            await opened(player)
            await player.send({"t": "move", "id": "m1", "d": {"move": first_move, "version": 0}})
            state = (await player.expect("answer"))["d"]
            kept = await sync_to_async(backends_of_the_write_thread)()
            assert kept, "the write thread holds no connection after its write"
            await sync_to_async(terminate)(kept)
            move = {"move": state["legal_moves"][0], "version": 1}
            await player.send({"t": "move", "id": "m2", "d": move})
            refused = await player.expect("error")
            assert (refused["id"], refused["d"]["status"]) == ("m2", 503)
            assert refused["d"]["code"] == "database-unavailable"
            await player.send({"t": "move", "id": "m3", "d": move})
            answer = await player.expect("answer")
            assert (answer["id"], answer["d"]["version"]) == ("m3", 2)
            reconnected = await sync_to_async(backends_of_the_write_thread)()
            assert reconnected and not reconnected & kept

    try:
        async_to_sync(scenario)()
    finally:
        one_thread.close()
        # Every other backend of the test database was terminated too, the shared write
        # threads' kept connections among them: those threads start afresh on next use.
        shared.close()
    assert log_of(gid) == [("move", "move"), ("move", "move")]
