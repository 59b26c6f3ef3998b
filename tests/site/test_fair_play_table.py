"""docs/fair-play.md's tables, walked for real.

The doors are enumerated from the code itself: every operation of the OpenAPI schema (and
each one that answers CSV), every websocket route, every page route of the app and every
task, so a new door without its row fails here. Each row's stated answer is then checked:

- the deal column: alice, whose ranked attempt at today's daily deal is in play, knocks at
  the door naming bob's ranked game of the same deal (its id, today's date, the code); the
  door refuses as stated, or answers without the deal's code and without bob's board;
- the face-down column: alice knocks naming her own game (or the puzzle, for a puzzle's
  door); no face-down card of it is in the answer;
- the puzzle column: no answer holds a puzzle's solution before its viewer answered it;
- a task row names the doors that show its output: each has a row of its own.

The counters table: each way of producing a result (retry, practice, guest, second
account) is played through the services, and each counter (board, streak, record, rating)
moves or stays as its cell says.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.tasks import Task
from django.urls import URLPattern, URLResolver
from django.urls.resolvers import RegexPattern
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import guests
from accounts.models import ApiToken
from api.realtime.routing import websocket_urlpatterns
from frontend.urls import urlpatterns as page_urlpatterns
from games import days, deals, services
from games.analysis import tasks
from games.analysis.models import BoardPosition
from games.arenas import play as arenas
from games.engine import GameCode, public_form, read_private
from games.models import DailyDeal, Game, PlayerStats
from games.puzzles.models import Puzzle
from games.races.models import RaceRating
from games.races.ratings import MIN_RATED_MOVES
from tests.realtime.wire import Socket
from tests.support.arenas import arena_on_known_deals, win_current
from tests.support.play import token_client, winning_line
from tests.support.puzzles import seeded
from tests.support.races import my_game, play_direct, running_race, win
from tests.support.secrecy import face_down_cards, strings

DOC = Path(__file__).resolve().parents[2] / "docs" / "fair-play.md"
ROW = re.compile(r"^\| `(?P<door>[^`]+)` \| (?P<cells>.*) \|$")
#: Today's daily deal in the doors' scene: a fixed number (no solver search), not the
#: number of any deal the scene plays otherwise.
DAILY_NUMBER = 123_456
CODE, LINE = winning_line()
#: What a write's body holds, so a write reaches its checks (serializers ignore the rest).
WRITE_BODY = {"version": 0, "move": "KS>1", "card": "KS", "private": True, "language": "en"}


def table(heading: str) -> dict[str, list[str]]:
    """The rows of the table under `heading`: the door (or counter) and its cells."""
    text = DOC.read_text().split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        if (found := ROW.match(line)) is not None:
            rows[found["door"]] = [cell.strip() for cell in found["cells"].split(" | ")]
    return rows


def _published_schema() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return dict(json.loads(response.content))


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and not isinstance(pattern.pattern, RegexPattern):
            yield route  # (the feeds' catch-all, a regex, is no door: it closes 4404)


def doors_in_code() -> set[str]:
    """Every door the code has today, named as the table names it."""
    schema = _published_schema()
    found = set()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            found.add(f"{method.upper()} {path}")
            content = operation.get("responses", {}).get("200", {}).get("content", {})
            if "text/csv" in content:
                found.add(f"CSV {path}")
    found |= {f"WS /{route}" for route in _routes(list(websocket_urlpatterns))}
    found |= {f"PAGE /{route}" for route in _routes(page_urlpatterns)}
    found |= {f"TASK {name}" for name, task in inspect.getmembers(tasks) if isinstance(task, Task)}
    return found


DOORS = table("Doors and secrets")
COUNTERS = table("Counters and ways to a result")


def test_every_door_of_the_code_has_its_row() -> None:
    """A door added to the code (an operation, a feed, a page, a task) needs its row."""
    in_code = doors_in_code()
    assert in_code - DOORS.keys() == set(), "doors without a row in docs/fair-play.md"
    assert DOORS.keys() - in_code == set(), "rows of doors the code no longer has"


@dataclass
class Scene:
    """Today's daily deal with alice's ranked attempt in play (no move yet) and bob's
    (two moves in); alice's own ordinary game; a public puzzle; bob's race room; a board
    position of the daily deal; a running public arena."""

    alice: User
    alice_api: APIClient
    code: str
    bobs_daily: Game
    bobs_board: str
    own_game: Game
    puzzle: Puzzle
    room: str
    board_key: str
    arena: str

    def values(self, *, own: bool) -> dict[str, str]:
        """The path parameters: naming bob's daily game, or (`own`) alice's own things."""
        return {
            "game_id": str(self.own_game.pk if own else self.bobs_daily.pk),
            "day": days.today().isoformat(),
            "puzzle_id": str(self.puzzle.pk),
            "room": self.room,
            "arena": self.arena,
            "username": "alice" if own else "bob",
            "board": "wins",
            "token_id": str(ApiToken.objects.filter(user=self.alice).values("pk")[0]["pk"]),
            "app_id": "1",
            "key": self.board_key,
        }


@pytest.fixture
def scene(alice: User, bob: User) -> Scene:
    DailyDeal.objects.create(
        date=days.today(), number=DAILY_NUMBER, candidate=0, verdict="winnable"
    )
    services.start_game(alice, daily=True)
    bobs = services.start_game(bob, daily=True)
    for _ in range(2):
        move = str(next(iter(deals.current(bobs).legal_moves)))
        bobs = services.play_move(bob, bobs.pk, move=move, version=bobs.version).game
    own = services.start_game(alice, code="YU1-C-AAAAAAB")
    alice_api = token_client(alice)
    room = token_client(bob).post("/api/v1/races", {"private": True}, format="json").json()["room"]
    return Scene(
        alice=alice,
        alice_api=alice_api,
        code=bobs.code,
        bobs_daily=bobs,
        bobs_board=json.dumps(public_form(deals.current(bobs))["columns"]),
        own_game=own,
        puzzle=seeded(1)[0],
        room=room,
        # A board position of the deal opened before it became today's daily deal.
        board_key=BoardPosition.objects.create(
            key="0123456789abcdef01234567", code=bobs.code, position=bobs.state
        ).key,
        arena=str(arena_on_known_deals(starts_at=timezone.now() - timedelta(minutes=1)).pk),
    )


def knock(scene: Scene, door: str, *, own: bool) -> tuple[int, Any]:
    """Alice at a REST door (or a CSV, or a page), naming bob's daily game or her own things."""
    kind, template = door.split(" ", 1)
    path = template
    for name, value in scene.values(own=own).items():
        path = path.replace("{" + name + "}", value)
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: scene.values(own=own).get(m[1], "x"), path)
    client = scene.alice_api
    if kind == "PAGE":
        client = APIClient()
        client.force_login(scene.alice)
        response = client.get(path)
        return response.status_code, response.content.decode()
    if kind == "CSV":
        response = client.get(path, {"format": "csv"})
        return response.status_code, response.content.decode()
    body = dict(WRITE_BODY, code=scene.code)
    response = client.generic(kind, path, json.dumps(body), content_type="application/json")
    answer = response.json() if response.content else None
    return response.status_code, answer


def said(answer: Any) -> set[str]:
    return set(strings(answer)) if not isinstance(answer, str) else {answer}


def feed(scene: Scene, route: str) -> tuple[int, Any]:
    """An anonymous socket on the feed naming bob's daily game: its close code, or its
    first message (1000 then)."""
    values = scene.values(own=False)
    return async_to_sync(_first_answer)(re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m[1]], route))


async def _first_answer(path: str) -> tuple[int, Any]:
    async with Socket(path) as socket:
        message = await socket.communicator.receive_output(timeout=30)
        if message["type"] == "websocket.close":
            return int(message.get("code", 1000)), None
        first = json.loads(message["text"])
        if first["t"] == "hello":
            first = await socket.receive()
        return 1000, first


def _with_database(door: str) -> Any:
    """A feed's socket runs its queries in other threads: they must see committed rows."""
    return pytest.param(door, marks=pytest.mark.django_db(transaction=door.startswith("WS ")))


@pytest.mark.parametrize("door", [_with_database(door) for door in sorted(DOORS)])
def test_each_door_keeps_each_secret_as_its_row_says(scene: Scene, door: str) -> None:
    deal, face_down, solver_line, puzzle_answer = DOORS[door]
    kind = door.split(" ", 1)[0]
    if kind == "TASK":
        shown_by = re.findall(r"`((?:GET|POST|CSV|WS) [^`]+)`", " ".join(DOORS[door]))
        assert shown_by and all(shown in DOORS for shown in shown_by), (door, shown_by)
        return
    if kind == "WS":
        status, answer = feed(scene, door.split(" ", 1)[1])
    else:
        status, answer = knock(scene, door, own=False)
    refused = re.fullmatch(r"(?:refused|closed) (\d+)(?: `([\w-]+)`)?", deal)
    if refused is not None:
        assert status == int(refused[1]), (door, status, answer)
        if refused[2] is not None:
            assert answer["error"]["code"] == refused[2], (door, answer)
    else:
        assert deal == "not shown", (door, deal)
        assert status == 1000 if kind == "WS" else status < 500, (door, status, answer)
        text = answer if isinstance(answer, str) else json.dumps(answer)
        assert scene.code not in text and scene.bobs_board not in text, (door, text[:300])

    assert face_down == "never" and puzzle_answer, door
    if solver_line != "never":  # a door that may show a solver line refuses the deal's
        assert refused is not None, door
    if kind != "WS":
        status, answer = knock(scene, door, own=True)
        hidden = face_down_cards(scene.own_game.pk)
        if "puzzle" in door:
            hidden = {str(card) for column in _puzzle_hidden(scene.puzzle) for card in column}
        assert status < 500, (door, status, answer)
        assert not hidden & said(answer), (door, hidden & said(answer))
        assert '"solution"' not in json.dumps(answer), door  # alice answered no puzzle


def _puzzle_hidden(puzzle: Puzzle) -> tuple[tuple[Any, ...], ...]:
    return read_private(puzzle.position).hidden_cards()


# ---- counters ---------------------------------------------------------------------------------

WAYS = ("retry", "daily practice", "guest", "second account", "arena")


def counters(player: User) -> dict[str, Any]:
    """What each counter holds for `player` now."""
    stats = PlayerStats.objects.filter(player=player, rule="C").first()
    board = APIClient().get("/api/v1/leaderboards/wins", {"rule": "C"}).json()["results"]
    return {
        "board": next((row["wins"] for row in board if row["player"] == player.username), None),
        "streak": stats.best_streak if stats is not None else None,
        "record": stats.best_time_game_id if stats is not None else None,
        "rating": RaceRating.objects.filter(player=player).count(),
    }


def won_fresh(player: User) -> Game:
    game = services.start_game(player, code=CODE)
    play_direct(player, game.pk, LINE)
    return Game.objects.get(pk=game.pk)


def won_race(player: User, rival: User) -> None:
    """A rated race (a deal the server chose) that `player` wins, `rival` having moved."""
    client, other = token_client(player), token_client(rival)
    room = running_race(client, other, server_dealt=True)
    play_direct(rival, my_game(other, room), LINE[:MIN_RATED_MOVES])
    win(client, room, player)


def produce(way: str, alice: User, rival: User) -> tuple[User, dict[str, Any]]:
    """One result of `way`: who produced it, and the counters just before it (after any
    result the way needs first: the win a retry starts from, the ranked daily attempt)."""
    if way == "retry":
        won = won_fresh(alice)
        before = counters(alice)
        retry = services.retry_from(alice, won.pk, won.version - 1)
        services.play_move(alice, retry.pk, move=LINE[-1], version=retry.version)
        return alice, before
    if way == "daily practice":
        number = GameCode.parse(CODE).number
        DailyDeal.objects.create(date=days.today(), number=number, candidate=0, verdict="winnable")
        ranked = services.start_game(alice, daily=True)
        services.resign(alice, ranked.pk, version=0)
        before = counters(alice)
        play_direct(alice, services.start_game(alice, daily=True).pk, LINE)
        return alice, before
    if way == "arena":  # three wins in a row, an arena's streak
        before = counters(alice)
        arena = arena_on_known_deals(starts_at=timezone.now() - timedelta(minutes=1))
        arenas.join(alice, arena)
        for _ in range(3):
            win_current(alice, arena)
        return alice, before
    player = guests.create_guest() if way == "guest" else User.objects.create_user("alice2")
    before = counters(player)
    won_fresh(player)
    won_race(player, rival)
    return player, before


@pytest.mark.django_db
@pytest.mark.parametrize("way", WAYS)
def test_each_way_to_a_result_moves_the_counters_its_column_says(
    way: str, alice: User, bob: User, settings: Any
) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0  # a race deals as soon as its racers are ready
    player, before = produce(way, alice, bob)
    after = counters(player)
    for counter, cells in COUNTERS.items():
        cell = cells[WAYS.index(way)]
        moved = after[counter] != before[counter]
        if cell == "own page only":  # the statistics moved, no board shows them
            assert moved and after["board"] is None, (way, counter, before, after)
        else:
            assert moved == (cell == "yes"), (way, counter, cell, before, after)
