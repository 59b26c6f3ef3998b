"""Hostile clients against a real uvicorn worker (the in-memory layer of `make run`): a reader
that never reads stalls nobody, a reset in the middle of a reply leaves nothing behind, and
open sockets and messages per socket are limited, each with its documented close code."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from oauth2_provider.models import get_access_token_model
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import ApiToken
from api.realtime.consumers import CLOSE_BAD_TOKEN, CLOSE_TOO_MANY
from games.models import Game
from games.races.models import Racer
from tests.support.http import call
from tests.support.oauth import obtain_tokens, register_app, signed_in
from tests.support.play import token_client, winning_line
from tests.support.races import my_game, running_race
from tests.support.rawsocket import SMALL_BUFFER, RawSocket
from tests.support.servers import RunningServer, asgi_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

#: A small outbox, so the slow reader overflows it within the test; races settle every second.
SERVER_ENV = {
    "WS_OUTBOX_MESSAGES": "64",
    "WS_MAX_SOCKETS_PER_CLIENT": "8",
    "RACE_TICK_SECONDS": "1",
    "RACE_COUNTDOWN_SECONDS": "0",
}
TIMEOUT = 30


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[RunningServer]:
    with asgi_server(SERVER_ENV) as running:
        yield running


@pytest.fixture(scope="module")
def lenient_server(django_db_setup: None) -> Iterator[RunningServer]:
    """No message limit to speak of: a client may ask for far more than it reads."""
    env = {**SERVER_ENV, "WS_MESSAGES_PER_SECOND": "100000", "WS_MESSAGE_BURST": "100000"}
    with asgi_server(env) as running:
        yield running


def open_sockets(server: RunningServer) -> int:
    """The sockets the worker holds open (its consumers still alive)."""
    with urllib.request.urlopen(f"{server.url}/healthz/sockets", timeout=TIMEOUT) as reply:
        return int(json.loads(reply.read())["open"])


def socket(server: RunningServer, path: str) -> ClientConnection:
    origin = Origin(server.url)
    return connect(f"ws://127.0.0.1:{server.port}{path}", origin=origin, open_timeout=TIMEOUT)


def receive(feed: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(feed.recv(timeout=TIMEOUT)))


def closed_with(feed: ClientConnection, *, sending: str | None = None) -> tuple[int, str]:
    """Read (after sending `sending` 1,000 times) until the server closes the socket; its
    close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        if sending is not None:
            for _ in range(1000):
                feed.send(sending)
        while True:
            feed.recv(timeout=TIMEOUT)
    received = closed.value.rcvd
    assert received is not None, "closed without a close frame"
    return received.code, received.reason


def test_a_reader_that_never_reads_stalls_no_other_socket(
    lenient_server: RunningServer, alice: User
) -> None:
    server = lenient_server
    code, line = winning_line()
    token = ApiToken.issue(alice, "mover")[1]
    api = token_client(alice)
    watched = api.post("/api/v1/games", {"code": code}, format="json").json()["id"]
    played = Game.objects.get(pk=watched)
    Game.objects.bulk_create(  # a full lobby: every snapshot the slow reader asks for is big
        Game(owner=alice, code=code, rule="C", state=played.state) for _ in range(50)
    )
    baseline = open_sockets(server)

    slow = RawSocket(server, "/ws/v1/lobby/", receive_buffer=SMALL_BUFFER)
    for _ in range(600):  # some 12 MB of lobby snapshots, more than any socket buffers hold
        slow.send_text('{"t": "resync"}')
    # The server is writing to a reader that does not read: its kernel holds megabytes for it.
    wait_until(lambda: slow.waiting_at_the_server() > 1_000_000, "the slow reader's backlog")
    with socket(server, f"/ws/v1/games/{watched}/") as spectator:
        assert receive(spectator)["t"] == "hello"
        assert receive(spectator)["t"] == "state"
        version = 0
        for move in line[:20]:
            body = {"move": move, "version": version}
            answer = call(server.url, f"/api/v1/games/{watched}/moves", token, body)
            version = int(answer["version"])
            pushed = receive(spectator)  # within the ceiling: never held behind the slow reader
            assert (pushed["t"], pushed["v"]) == ("move", version)
    # The slow reader fell more than 64 messages behind: closed, its consumer gone.
    wait_until(lambda: open_sockets(server) == baseline, "the slow reader's consumer to end")
    slow.close()


def test_a_reset_in_the_middle_of_a_reply_leaves_no_consumer_behind(
    server: RunningServer, alice: User, bob: User, settings: Any
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0
    room = running_race(token_client(alice), token_client(bob))
    token = ApiToken.issue(alice, "racer")[1]
    baseline = open_sockets(server)
    for _ in range(20):
        racer = RawSocket(server, f"/ws/v1/races/{room}/?token={token}")
        for _ in range(3):
            racer.send_text('{"t": "resync"}')
        racer.reset()
    for _ in range(20):
        watcher = RawSocket(server, "/ws/v1/lobby/")
        watcher.send_text('{"t": "resync"}')
        watcher.reset()

    wait_until(lambda: open_sockets(server) == baseline, "every reset socket's consumer to end")
    alice_racer = Racer.objects.filter(race__room=room, player=alice)
    wait_until(lambda: not alice_racer.get().connected, "alice's race presence to end")
    my_game(token_client(alice), room)  # the race still answers


def test_a_client_opens_so_many_sockets_and_no_more(server: RunningServer) -> None:
    baseline = open_sockets(server)
    with ExitStack() as stack:
        for _ in range(8):
            feed = stack.enter_context(socket(server, "/ws/v1/lobby/"))
            assert receive(feed)["t"] == "lobby"
        with socket(server, "/ws/v1/lobby/") as one_more:
            assert closed_with(one_more) == (CLOSE_TOO_MANY, "too-many-sockets")
    wait_until(lambda: open_sockets(server) == baseline, "the sockets to close")
    with socket(server, "/ws/v1/lobby/") as again:  # closed ones count no more
        assert receive(again)["t"] == "lobby"


def test_a_socket_that_floods_is_closed(server: RunningServer) -> None:
    with socket(server, "/ws/v1/lobby/") as flood:
        assert receive(flood)["t"] == "lobby"
        closed = closed_with(flood, sending='{"t": "ping"}')
        assert closed == (CLOSE_TOO_MANY, "too-many-messages")


def test_a_socket_closes_when_its_oauth_token_expires(server: RunningServer, alice: User) -> None:
    player = signed_in(alice)
    tokens = obtain_tokens(player, register_app(player)["client_id"], "game:read")
    expires = timezone.now() + timedelta(seconds=2)
    get_access_token_model().objects.filter(user=alice).update(expires=expires)
    with socket(server, f"/ws/v1/lobby/?token={tokens['access_token']}") as feed:
        assert receive(feed)["t"] == "lobby"
        assert closed_with(feed) == (CLOSE_BAD_TOKEN, "token-expired")
    assert timezone.now() >= expires
