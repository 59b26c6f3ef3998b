"""Helpers to drive races through the REST API: rooms, readiness, and a racer's quick win."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games import deals, services
from games.engine import private_form
from games.models import Game
from games.races.models import Race
from tests.support.play import post, winning_line
from tests.support.schema import documented_codes


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def refused(response: Any, status: int, code: str) -> None:
    """The refusal expected; a race operation's own refusal is listed in the schema too."""
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code, response.content
    path, method = response.request["PATH_INFO"], response.request["REQUEST_METHOD"]
    if path.startswith("/api/v1/races") and code != "missing-scope":
        assert code in documented_codes(method, path, status), (method, path, code)


def open_room(creator: APIClient, **body: Any) -> str:
    """A private room on the deal with a known winning line; its room code."""
    body.setdefault("code", winning_line()[0])
    body.setdefault("private", True)
    return str(ok(post(creator, "/api/v1/races", body), 201)["room"])


def server_dealt_room(creator: APIClient, *, deal: str | None = None, **body: Any) -> str:
    """A room whose deal the server chose (so it may be rated), then set, while the room is
    open, to `deal` (by default that of the known winning line): the race deals it when it
    starts."""
    room = str(ok(post(creator, "/api/v1/races", {"private": True, **body}), 201)["room"])
    Race.objects.filter(room=room).update(code=deal or winning_line()[0])
    return room


def running_race(
    creator: APIClient, *others: APIClient, server_dealt: bool = False, **body: Any
) -> str:
    """A room joined by `others`, everyone ready: with no countdown it runs at once. A chosen
    code by default (never rated); `server_dealt` for a deal the server chose."""
    room = server_dealt_room(creator, **body) if server_dealt else open_room(creator, **body)
    for client in others:
        ok(post(client, f"/api/v1/races/{room}/join", {}))
    for client in (creator, *others):
        ok(post(client, f"/api/v1/races/{room}/ready", {}))
    return room


def my_game(client: APIClient, room: str) -> int:
    me = ok(client.get(f"/api/v1/races/{room}"))["me"]
    assert me is not None and me["game"] is not None, me
    return int(me["game"])


def play_line(client: APIClient, game_id: int, moves: list[str], version: int = 0) -> int:
    """Play `moves` through the ordinary move endpoint; the version after them."""
    for move in moves:
        body = ok(
            post(client, f"/api/v1/games/{game_id}/moves", {"move": move, "version": version})
        )
        version = int(body["version"])
    return version


def play_direct(player: User, game_id: int, moves: list[str], version: int = 0) -> int:
    """The same through the move service (the path the endpoint calls), quicker for long lines."""
    for move in moves:
        version = services.play_move(player, game_id, move=move, version=version).game.version
    return version


def fast_forward(game_id: int, moves: list[str]) -> int:
    """Put a race game where `moves` lead (engine replay, stored as the service would), for
    tests whose point is the next write; that write then takes the real path. The version."""
    game = Game.objects.get(pk=game_id)
    engine = deals.replayed(game, moves)
    Game.objects.filter(pk=game_id).update(
        state=private_form(engine),
        version=len(moves),
        move_count=len(moves),
        score=engine.score,
        cards_on_foundations=engine.cards_on_foundations,
    )
    return len(moves)


def resign(client: APIClient, game_id: int) -> None:
    version = ok(client.get(f"/api/v1/games/{game_id}"))["version"]
    ok(post(client, f"/api/v1/games/{game_id}/resign", {"version": version}))


def end_by_time_limit(room: str) -> None:
    """The race's time limit runs out now; the next read settles it."""
    Race.objects.filter(room=room).update(ends_at=timezone.now() - timedelta(seconds=1))


def win(client: APIClient, room: str, player: User) -> None:
    """Win the race game: the line through the service, its last move through the endpoint."""
    game_id = my_game(client, room)
    version = play_direct(player, game_id, winning_line()[1][:-1])
    play_line(client, game_id, winning_line()[1][-1:], version)
