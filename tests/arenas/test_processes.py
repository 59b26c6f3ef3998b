"""Every process killed mid-arena (SIGKILL: two ASGI servers, a task worker and the Redis
behind them) and restarted: the arena plays on, and its final standings, pushed on the feed
and answered by REST, equal those computed from the stored games alone."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import ApiToken
from games.arenas import points, standings
from games.arenas.models import Arena, Seat
from games.models import Game
from tests.support.arenas import arena_on_known_deals
from tests.support.http import call, send
from tests.support.play import winning_line
from tests.support.redis import redis_shards
from tests.support.servers import RunningServer, asgi_server, task_worker

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

LINE = winning_line()[1]


def my_game(server: RunningServer, arena: Arena, token: str) -> dict[str, Any]:
    return call(server.url, f"/api/v1/arenas/{arena.pk}/game", token)


def play(server: RunningServer, game: dict[str, Any], token: str, moves: int) -> dict[str, Any]:
    """The next `moves` moves of the known line on `game` (its version says where it is)."""
    version = int(game["version"])
    for move in LINE[version : version + moves]:
        game = call(
            server.url,
            f"/api/v1/games/{game['id']}/moves",
            token,
            {"move": move, "version": version},
        )
        version = int(game["version"])
    return game


def keep_playing(
    server: RunningServer, game: dict[str, Any], token: str, stop: threading.Event
) -> None:
    """Moves sent one after another until the server dies under them (a connection error)."""
    version = int(game["version"])
    try:
        for move in LINE[version:-1]:
            if stop.is_set():
                return
            status, answer = send(
                server.url,
                f"/api/v1/games/{game['id']}/moves",
                token,
                {"move": move, "version": version},
            )
            if status != 200:
                return
            version = int(answer["version"])
    except OSError:  # the kill: what was committed stays, what was not is lost
        return


def follow(server: RunningServer, arena: Arena) -> ClientConnection:
    return connect(
        f"{server.ws_url}/ws/v1/arenas/{arena.pk}/", origin=Origin(server.url), open_timeout=60
    )


def standings_until(feed: ClientConnection, test: Any) -> dict[str, Any]:
    """The first `arena` message `test` accepts (each wait bounded, never a pause)."""
    while True:
        message = json.loads(feed.recv(timeout=60))
        if message["t"] == "arena" and test(message["d"]):
            return dict(message["d"])


def test_every_process_killed_mid_arena_loses_no_point(alice: User, bob: User, carol: User) -> None:
    arena = arena_on_known_deals(starts_at=timezone.now() - timedelta(seconds=1))
    tokens = {user.username: ApiToken.issue(user, "arena")[1] for user in (alice, bob, carol)}
    with redis_shards(1) as redis:
        env = {"PUZZLE_STOCK": "0", "REDIS_URL": redis.url, "ARENA_PUSH_INTERVAL_MS": "100"}
        with (
            asgi_server(env) as first,
            asgi_server(env) as second,
            task_worker("w1", env) as worker,
        ):
            for name, server in (("alice", first), ("bob", second), ("carol", first)):
                call(server.url, f"/api/v1/arenas/{arena.pk}/join", tokens[name], {})
            play(first, my_game(first, arena, tokens["alice"]), tokens["alice"], len(LINE))  # a win
            play(second, my_game(second, arena, tokens["bob"]), tokens["bob"], 30)
            carols = my_game(first, arena, tokens["carol"])
            call(first.url, f"/api/v1/games/{carols['id']}/resign", tokens["carol"], {"version": 0})
            with follow(second, arena) as doomed_feed:
                live = standings_until(doomed_feed, lambda d: d["rows"][0]["points"] == 2)
                assert live["rows"][0]["username"] == "alice"
                # Bob plays on while every process dies under him.
                stop = threading.Event()
                bobs = my_game(second, arena, tokens["bob"])
                mover = threading.Thread(
                    target=keep_playing, args=(second, bobs, tokens["bob"], stop)
                )
                mover.start()
                for process in (first.child, second.child, worker):
                    process.kill()
                redis.kill()
                stop.set()
                mover.join()

        redis.start()
        with asgi_server(env) as again, task_worker("w2", env), follow(again, arena) as feed:
            alice_game = my_game(again, arena, tokens["alice"])
            assert alice_game["version"] == 0  # deal 2, dealt when deal 1 was won
            play(again, alice_game, tokens["alice"], len(LINE))
            assert standings_until(feed, lambda d: d["rows"][0]["points"] == 4)["players"] == 3
            bobs = my_game(again, arena, tokens["bob"])
            assert bobs["status"] == "active" and bobs["version"] >= 30  # his committed moves
            Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now())  # the end comes
            pushed = standings_until(feed, lambda d: d["status"] == "finished")
            final = call(again.url, f"/api/v1/arenas/{arena.pk}/standings")

    assert pushed["rows"] == final["rows"]
    assert final["status"] == "finished"
    top = final["rows"][0]
    assert (top["username"], top["points"], top["rank"]) == ("alice", 4, 1)
    assert not Game.objects.filter(arena_game__seat__arena=arena, status="active").exists()
    seats = list(Seat.objects.filter(arena=arena).select_related("player"))
    from_games = {seat.pk: points.score(standings.played(seat)) for seat in seats}
    for seat in seats:  # what the live updates stored equals what the games say
        score = from_games[seat.pk]
        assert (seat.points, seat.wins, seat.games_ended) == (
            score.points,
            score.wins,
            len(score.each),
        ), seat.player.username
    assert {seat.pk: seat.rank for seat in seats} == standings.final_ranks(arena)
    rows = {row["username"]: (row["rank"], row["points"]) for row in final["rows"]}
    assert rows == {seat.player.username: (seat.rank, from_games[seat.pk].points) for seat in seats}
