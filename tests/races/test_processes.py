"""A race across two websocket processes sharing a real Redis: a worker killed mid-race loses
nothing; its racer reconnects to the other process, resyncs, and wins."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import ApiToken
from tests.support.http import call
from tests.support.play import winning_line
from tests.support.redis import redis_shards
from tests.support.secrecy import face_down_cards, strings
from tests.support.servers import RunningServer, asgi_server

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

#: A ceiling, never a pause: every wait ends when its message comes.
TIMEOUT = 30


def follow(server: RunningServer, room: str, token: str) -> ClientConnection:
    return connect(
        f"{server.ws_url}/ws/v1/races/{room}/?token={token}",
        origin=Origin(server.url),
        open_timeout=TIMEOUT,
    )


class Feed:
    """A race socket's messages, each checked to name none of the secret cards."""

    def __init__(self, socket: ClientConnection, secret: set[str]) -> None:
        self.socket, self.secret = socket, secret

    def next(self) -> dict[str, Any]:
        message = dict(json.loads(self.socket.recv(timeout=TIMEOUT)))
        assert not self.secret.intersection(strings(message)), message
        return message

    def until(self, test: Any) -> dict[str, Any]:
        while not test(message := self.next()):
            pass
        return message


def racer(message: dict[str, Any], name: str) -> dict[str, Any]:
    if message["t"] == "race-progress":
        return dict(message["d"]["racer"])
    return next(r for r in message["d"]["racers"] if r["player"] == name)


def test_a_killed_worker_loses_no_race(alice: User, bob: User) -> None:
    alice_token, bob_token = ApiToken.issue(alice, "p")[1], ApiToken.issue(bob, "p")[1]
    code, line = winning_line()
    with redis_shards() as redis:
        env = {"REDIS_URL": redis.url, "RACE_COUNTDOWN_SECONDS": "0", "RACE_TICK_SECONDS": "1"}
        with asgi_server(env) as doomed, asgi_server(env) as survivor:
            room = call(survivor.url, "/api/v1/races", alice_token, {"code": code, "private": True})
            room = room["room"]
            call(survivor.url, f"/api/v1/races/{room}/join", bob_token, {})
            for token in (alice_token, bob_token):
                call(survivor.url, f"/api/v1/races/{room}/ready", token, {})
            mine = call(survivor.url, f"/api/v1/races/{room}", alice_token)["me"]["game"]
            theirs = call(survivor.url, f"/api/v1/races/{room}", bob_token)["me"]["game"]
            secret = face_down_cards(theirs)  # the same deal: Alice turns up Bob's secrets
            with follow(survivor, room, bob_token) as watching:
                bob_feed = Feed(watching, secret)
                assert bob_feed.next()["t"] == "hello"
                with follow(doomed, room, alice_token) as lost:
                    alice_feed = Feed(lost, secret)
                    alice_feed.next()
                    alice_feed.until(lambda m: m["t"] == "race")
                    bob_feed.until(
                        lambda m: m["t"] == "race" and racer(m, "alice")["state"] == "playing"
                    )
                    version = 0
                    for move in line[:10]:
                        body = {"move": move, "version": version}
                        path = f"/api/v1/games/{mine}/moves"
                        version = call(survivor.url, path, alice_token, body)["version"]
                    seen = bob_feed.until(lambda m: racer(m, "alice")["moves"] == 10)
                    alice_feed.until(lambda m: m["t"] == "race-progress" and m["v"] == seen["v"])
                    doomed.child.kill()
                # Alice comes back on the surviving process: the snapshot has all her moves.
                with follow(survivor, room, alice_token) as back:
                    alice_feed = Feed(back, secret)
                    assert alice_feed.next()["t"] == "hello"
                    snapshot = alice_feed.until(lambda m: m["t"] == "race")
                    assert snapshot["v"] >= seen["v"] and snapshot["d"]["status"] == "running"
                    assert racer(snapshot, "alice")["moves"] == 10
                    for move in line[10:]:
                        body = {"move": move, "version": version}
                        path = f"/api/v1/games/{mine}/moves"
                        version = call(survivor.url, path, alice_token, body)["version"]
                    end = bob_feed.until(
                        lambda m: m["t"] == "race" and m["d"]["status"] == "finished"
                    )
                    assert racer(end, "alice")["place"] == 1 and end["d"]["code"] == code
                    alice_feed.until(lambda m: m["t"] == "race" and m["d"]["status"] == "finished")
