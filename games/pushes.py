"""The websocket protocol: every message type the server sends, and how each is built.

This is the one place that names a message type and builds its payload
(docs/realtime.md documents them; tests/realtime/test_pushes.py checks the two,
and the browser's `pushes.js`, agree). Services say what happened (a game
started, a move was played, a game ended); this module says how that is told
and to which feed, and hands the envelopes to `games.push_transport`, which
sends them once the transaction commits. The consumers build their snapshots,
`hello`, `pong` and `error` here too.

Every versioned message is `{"v": version, "t": type, "d": data}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypedDict

from games import push_transport
from games.arenas.standings import Standings
from games.engine import MoveResult
from games.fairness.visibility import open_to_anyone
from games.models import Game
from games.public import GameState, GameSummary, daily_result, game_summary, summary_of
from games.races.public import RacerProgress, RaceState

#: The lobby feed's group; each game's feed is `game_group(id)`.
LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def race_group(room: str) -> str:
    """A race's feed (`/ws/v1/races/<room>/`): its state and every racer's progress."""
    return f"race-{room}"


class Type(StrEnum):
    """What the server sends (`t`)."""

    HELLO = "hello"
    STATE = "state"
    MOVE = "move"
    UNDO = "undo"
    FINISHED = "finished"
    LOBBY = "lobby"
    GAME_STARTED = "game-started"
    GAME_PROGRESS = "game-progress"
    GAME_FINISHED = "game-finished"
    GAME_REMOVED = "game-removed"
    RESULT = "result"
    HINT = "hint"
    WINNABILITY = "winnability"
    RACE = "race"
    RACE_PROGRESS = "race-progress"
    ARENA = "arena"
    PONG = "pong"
    ERROR = "error"
    ANSWER = "answer"


class ClientType(StrEnum):
    """What a client may send (`t`); anything else is answered with an `error`."""

    PING = "ping"
    RESYNC = "resync"
    # The owner's writes on the game feed (each answered by an `answer` or an `error` with
    # the request's `id`); the same bodies as their REST endpoints.
    MOVE = "move"
    TAP = "tap"
    DOUBLE_CLICK = "double-click"
    UNDO = "undo"
    RESIGN = "resign"


#: Game-feed messages after which the game is over: a won game's last move and its
#: `finished` share a version, and these stand second (see api/realtime/sequencer.py).
ENDS_GAME = frozenset({Type.FINISHED})


class Push(TypedDict):
    """A versioned envelope."""

    v: int
    t: str
    d: Any


class Unversioned(TypedDict, total=False):
    """`hello`, `pong`, `error` and `answer`: no version (and `pong` no data); an answer, and
    an error answering a request, carry the request's `id`."""

    t: str
    d: Any
    id: str | int | None


class MoveData(TypedDict):
    move: str
    kind: str
    intent: str
    turned_up: str | None
    score_delta: int
    state: GameState


class UndoData(TypedDict):
    undone: str
    state: GameState


class FinishedData(TypedDict):
    status: str
    state: GameState


class RemovedData(TypedDict):
    id: int


class LobbyData(TypedDict):
    games: list[GameSummary]


class RaceProgressData(TypedDict):
    racer: RacerProgress
    server_now: str


class HelloData(TypedDict):
    username: str | None
    owner: bool


class ErrorData(TypedDict):
    code: str
    message: str


# Snapshots and answers on a socket (the consumers send them).


def state(version: int, game_state: GameState) -> Push:
    """A game's full public state: on connect and on resync."""
    return {"v": version, "t": Type.STATE, "d": game_state}


def race(race_state: RaceState) -> Push:
    """A race's whole public state: on connect, on resync, and after every change but a move."""
    return {"v": race_state["version"], "t": Type.RACE, "d": race_state}


def arena(version: int, standings: Standings) -> Push:
    """One viewer's arena standings (its top 10, their rank and neighbours, the players, the
    time left): on connect, on resync, and at most once per `ARENA_PUSH_INTERVAL_MS` while
    they change (`version`: the arena's seats, games dealt and games ended, plus one once over)."""
    return {"v": version, "t": Type.ARENA, "d": standings}


def lobby(games: list[GameSummary]) -> Push:
    """The lobby's snapshot of active games."""
    data: LobbyData = {"games": games}
    return {"v": 0, "t": Type.LOBBY, "d": data}


def hello(username: str | None, *, owner: bool) -> Unversioned:
    data: HelloData = {"username": username, "owner": owner}
    return {"t": Type.HELLO, "d": data}


def pong() -> Unversioned:
    return {"t": Type.PONG}


def error(code: str, message: str) -> Unversioned:
    data: ErrorData = {"code": code, "message": message}
    return {"t": Type.ERROR, "d": data}


def answer(request_id: str | int, game_state: GameState) -> Unversioned:
    """A write sent on the socket was accepted (or was a retry): the game after it, as REST."""
    return {"t": Type.ANSWER, "id": request_id, "d": game_state}


def refused(request_id: str | int | None, status: int, body: dict[str, Any]) -> Unversioned:
    """A write sent on the socket was refused: REST's error object plus its HTTP `status`."""
    return {"t": Type.ERROR, "id": request_id, "d": {**body["error"], "status": status}}


# What a committed change publishes (services call these inside their transaction).


def game_started(game: Game) -> None:
    """A new game: the lobby hears of it at version 0, if anyone may watch it."""
    if open_to_anyone(game):
        push_transport.publish([(LOBBY_GROUP, _push(0, Type.GAME_STARTED, game_summary(game)))])


def game_removed(game_id: int) -> None:
    """An untouched game was replaced by a new one and deleted: the lobby drops it."""
    data: RemovedData = {"id": game_id}
    push_transport.publish([(LOBBY_GROUP, _push(0, Type.GAME_REMOVED, data))])


def moved(game: Game, result: MoveResult, *, kind: str, intent: str, state: GameState) -> None:
    """An accepted move (or tap, double click, take-back); `state` is the game after it."""
    turned_up = result.turned_up
    data: MoveData = {
        "move": str(result.move),
        "kind": kind,
        "intent": intent,
        "turned_up": str(turned_up) if turned_up is not None else None,
        "score_delta": result.score_delta,
        "state": state,
    }
    _changed(game, Type.MOVE, data, state)


def undone(game: Game, move: str, *, state: GameState) -> None:
    """An accepted undo of `move`."""
    data: UndoData = {"undone": move, "state": state}
    _changed(game, Type.UNDO, data, state)


def finished(game: Game, state: GameState) -> None:
    """A game just ended (won or abandoned): its feed, the lobby (when anyone may watch the
    game, as for its start and moves), and a ranked daily's result (a row of the day's public
    ranking)."""
    data: FinishedData = {"status": game.status, "state": state}
    push_transport.publish([(game_group(game.pk), _push(game.version, Type.FINISHED, data))])
    # The lobby's boards refresh on it; a race game counts on none.
    if not game.raced and open_to_anyone(game):
        summary = game_summary(game)
        push_transport.publish([(LOBBY_GROUP, _push(game.version, Type.GAME_FINISHED, summary))])
    if game.ranked:
        result = daily_result(game)
        push_transport.publish([(LOBBY_GROUP, _push(game.version, Type.RESULT, result))])


def assist_answered(game_id: int, question: str, answer: dict[str, Any]) -> None:
    """A queued hint or winnability question was solved: told to the owner's sockets only
    (unversioned: the board did not change; `answer["version"]` says which board it is for)."""
    kind = Type.HINT if question == "hint" else Type.WINNABILITY
    envelope: Unversioned = {"t": kind, "d": answer}
    push_transport.publish_to_owner(game_group(game_id), envelope)


def race_changed(race_state: RaceState) -> None:
    """A race changed (joined, ready, countdown, start, a racer's presence, the end)."""
    group = race_group(race_state["room"])
    push_transport.publish([(group, race(race_state))])


def race_progress(room: str, version: int, racer: RacerProgress, server_now: str) -> None:
    """One racer's progress after a move: counts and state only, never a card."""
    data: RaceProgressData = {"racer": racer, "server_now": server_now}
    push_transport.publish([(race_group(room), _push(version, Type.RACE_PROGRESS, data))])


def _changed(game: Game, kind: Type, data: MoveData | UndoData, state: GameState) -> None:
    """A change of the board: the game's feed gets it, the lobby a light summary (when anyone
    may watch the game)."""
    sends: list[tuple[str, Mapping[str, Any]]] = [
        (game_group(game.pk), _push(game.version, kind, data))
    ]
    if open_to_anyone(game):
        sends.append((LOBBY_GROUP, _push(game.version, Type.GAME_PROGRESS, summary_of(state))))
    push_transport.publish(sends)


def _push(version: int, kind: Type, data: Any) -> Push:
    return {"v": version, "t": kind, "d": data}
