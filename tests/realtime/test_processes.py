"""Real processes: two uvicorn workers sharing the test database and two redis-servers."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import ApiToken
from tests.support.http import call
from tests.support.redis import RedisShards, redis_shards
from tests.support.secrecy import face_down_cards, strings
from tests.support.servers import RunningServer, asgi_server

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

CODE = "YU1-C-AAAAAAB"
#: A ceiling, never a pause: each wait ends when its message or answer comes; generous so a
#: machine whose cores are busy with other work does not fail a test that would pass.
TIMEOUT = 30


@dataclass
class Cluster:
    redis: RedisShards
    movers: RunningServer
    watchers: RunningServer


@pytest.fixture(scope="module")
def cluster(django_db_setup: None) -> Iterator[Cluster]:
    with redis_shards() as redis:
        env = {"REDIS_URL": redis.url}
        with asgi_server(env) as movers, asgi_server(env) as watchers:
            yield Cluster(redis, movers, watchers)


@pytest.fixture
def token(alice: User) -> str:
    return ApiToken.issue(alice, "processes")[1]


def send(
    opener: urllib.request.OpenerDirector, request: urllib.request.Request
) -> tuple[int, bytes]:
    """Send a request to a server process; its status and body."""
    try:
        with opener.open(request, timeout=TIMEOUT) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def play(server: RunningServer, token: str, state: dict[str, Any]) -> dict[str, Any]:
    body = {"move": state["legal_moves"][0], "version": state["version"]}
    return call(server.url, f"/api/v1/games/{state['id']}/moves", token, body)


def watch(server: RunningServer, game_id: int) -> ClientConnection:
    """A third-party websocket client (it sends an Origin naming the host, as documented)."""
    return connect(
        f"{server.ws_url}/ws/v1/games/{game_id}/", origin=Origin(server.url), open_timeout=TIMEOUT
    )


def receive(socket: ClientConnection, game_id: int) -> dict[str, Any]:
    """The next message, which must name none of the game's face-down cards."""
    message = dict(json.loads(socket.recv(timeout=TIMEOUT)))
    assert not face_down_cards(game_id).intersection(strings(message)), message
    return message


def opened(socket: ClientConnection, game_id: int) -> dict[str, Any]:
    assert receive(socket, game_id)["t"] == "hello"
    state = receive(socket, game_id)
    assert state["t"] == "state"
    return state


def test_a_move_posted_to_one_process_reaches_a_watcher_of_the_other(
    cluster: Cluster, token: str
) -> None:
    game = call(cluster.movers.url, "/api/v1/games", token, {"code": CODE})
    with watch(cluster.watchers, game["id"]) as socket:
        assert opened(socket, game["id"])["v"] == 0
        answer = play(cluster.movers, token, game)
        push = receive(socket, game["id"])
        assert (push["t"], push["v"], push["d"]["move"]) == ("move", 1, game["legal_moves"][0])
        assert push["d"]["state"]["columns"] == answer["columns"]


def test_a_socket_move_is_pushed_to_every_other_socket_in_either_process(
    cluster: Cluster, token: str
) -> None:
    """The writer's own process gets no push while the writer is its only socket in the game
    (its answer stands for it: push_transport.answered_directly), but a spectator joining
    there gets the next one, as does the other process's."""
    state = call(cluster.movers.url, "/api/v1/games", token, {"code": CODE})
    gid = state["id"]
    url = f"{cluster.movers.ws_url}/ws/v1/games/{gid}/"
    auth = {"Authorization": f"Bearer {token}"}
    with (
        connect(url, origin=Origin(cluster.movers.url), additional_headers=auth) as owner,
        watch(cluster.watchers, gid) as far,
    ):
        opened(owner, gid)
        opened(far, gid)
        for version in (0, 1):
            with ExitStack() as spectators:  # the second move has one beside the owner
                nearby = [
                    spectators.enter_context(watch(cluster.movers, gid)) for _ in range(version)
                ]
                for socket in nearby:
                    opened(socket, gid)
                body = {"move": state["legal_moves"][0], "version": version}
                owner.send(json.dumps({"t": "move", "id": f"m{version}", "d": body}))
                answer = receive(owner, gid)
                assert (answer["t"], answer["id"]) == ("answer", f"m{version}"), answer
                state = answer["d"]
                for socket in [far, *nearby]:
                    push = receive(socket, gid)
                    assert (push["t"], push["v"]) == ("move", version + 1), push
                    assert push["d"]["state"]["columns"] == state["columns"]
        owner.send(json.dumps({"t": "ping"}))
        assert receive(owner, gid) == {"t": "pong"}  # no push of its own writes came first


def test_moves_survive_a_redis_crash_and_a_reconnecting_client_resyncs(
    cluster: Cluster, token: str
) -> None:
    state = call(cluster.movers.url, "/api/v1/games", token, {"code": CODE})
    gid = state["id"]
    with watch(cluster.watchers, gid) as socket:
        opened(socket, gid)
        state = play(cluster.movers, token, state)
        assert receive(socket, gid)["v"] == 1
        cluster.redis.kill()
        for _ in range(3):
            state = play(cluster.movers, token, state)
        assert state["version"] == 4
        with pytest.raises(ConnectionClosed):  # its layer died: the server hangs up
            socket.recv(timeout=TIMEOUT)
    cluster.redis.start()
    with watch(cluster.watchers, gid) as socket:
        resynced = opened(socket, gid)
        assert (resynced["v"], resynced["d"]["columns"]) == (4, state["columns"])
        play(cluster.movers, token, state)
        assert receive(socket, gid)["v"] == 5


def test_a_token_revoked_on_one_process_closes_its_socket_on_the_other(
    cluster: Cluster, alice: User
) -> None:
    revoked, raw = ApiToken.issue(alice, "lost phone")
    game = call(cluster.movers.url, "/api/v1/games", raw, {"code": CODE})
    url = f"{cluster.watchers.ws_url}/ws/v1/games/{game['id']}/"
    auth = {"Authorization": f"Bearer {raw}"}
    with connect(url, origin=Origin(cluster.watchers.url), additional_headers=auth) as socket:
        opened(socket, game["id"])
        cookies = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
        login = urllib.request.Request(
            f"{cluster.movers.url}/api/v1/auth/login",
            data=json.dumps({"username": "alice", "password": "correct horse battery"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        assert send(browser, login)[0] == 200
        csrf = next(cookie.value for cookie in cookies if cookie.name == "csrftoken")
        revoke = urllib.request.Request(
            f"{cluster.movers.url}/api/v1/tokens/{revoked.pk}",
            method="DELETE",
            headers={"X-CSRFToken": csrf or ""},
        )
        assert send(browser, revoke)[0] == 204
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


@pytest.mark.parametrize("origin", ["http://127.0.0.1:9999", "https://127.0.0.1:{port}"])
def test_a_real_server_refuses_an_origin_with_another_port_or_scheme(
    cluster: Cluster, origin: str
) -> None:
    url = f"{cluster.watchers.ws_url}/ws/v1/lobby/"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin(origin.format(port=cluster.watchers.port)), open_timeout=TIMEOUT)
    assert refused.value.response.status_code == 403
