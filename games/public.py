"""The public state of a game: what players, spectators and websockets see.

Built from the engine's public form, which never holds a face-down card's
identity, plus the game row's metadata. REST answers and websocket pushes use
this one function so both channels send the same shape; the TypedDicts name
that shape (docs/api.md and docs/realtime.md describe it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from django.utils import timezone

from games import deals
from games.days import is_closed
from games.engine import Game as EngineGame
from games.engine import public_form
from games.engine.finish import every_card_face_up
from games.fairness.visibility import hides_code
from games.models import Game


class GameSummary(TypedDict):
    """The list/lobby form of a game: its metadata, no board."""

    id: int
    owner: str
    code: str | None
    daily: str | None
    ranked: bool
    origin: str
    retried_from: int | None
    rule: str
    status: str
    version: int
    score: int
    move_count: int
    cards_on_foundations: int
    elapsed_seconds: float
    clock_running: bool
    assisted: bool
    closed: bool
    created_at: str
    first_move_at: str | None
    finished_at: str | None


class GameState(GameSummary):
    """The full public state: the summary plus the board (face-up cards only)."""

    columns: list[dict[str, Any]]
    foundations: list[dict[str, Any]]
    undo_depth: int
    legal_moves: list[str]
    can_finish: bool


class DailyResult(TypedDict):
    """A ranked daily game's result: enough for a client to refresh a ranking."""

    daily: str | None
    rule: str
    game: int
    player: str
    status: str
    moves: int
    elapsed_seconds: float
    cards_on_foundations: int
    score: int
    assisted: bool


#: The keys of a `GameState` that make it a board rather than a summary.
BOARD_KEYS = GameState.__required_keys__ - GameSummary.__required_keys__


def game_summary(game: Game, *, now: datetime | None = None) -> GameSummary:
    """The list/lobby form: metadata without the board (a running daily deal's code hidden)."""
    now = now or timezone.now()
    return {
        "id": game.pk,
        "owner": game.owner.get_username(),
        "code": None if hides_code(game) else game.code,
        "daily": game.daily_date.isoformat() if game.daily_date else None,
        "ranked": game.ranked,
        "origin": game.origin,
        "retried_from": game.retried_from_id,
        "rule": game.rule,
        "status": game.status,
        "version": game.version,
        "score": game.score,
        "move_count": game.move_count,
        "cards_on_foundations": game.cards_on_foundations,
        "elapsed_seconds": round(game.elapsed(now).total_seconds(), 3),
        "clock_running": game.clock_running(now),
        "assisted": game.assisted,
        "closed": game.status == Game.Status.ACTIVE and is_closed(game),
        "created_at": game.created_at.isoformat(),
        "first_move_at": game.first_move_at.isoformat() if game.first_move_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def summary_of(state: GameState) -> GameSummary:
    """A state's summary, cut from it (no second read of the row, same clock)."""
    summary = {key: value for key, value in state.items() if key not in BOARD_KEYS}
    return summary  # type: ignore[return-value]  # exactly GameSummary's keys


def game_state(game: Game, engine: EngineGame | None = None) -> GameState:
    """The full public state: summary, board, undo depth and the legal moves.

    None once over, nor in a ranked daily game whose day has closed (it takes no more moves).
    `can_finish`: every card is face up, so Finish may carry the rest home.
    """
    engine = engine or deals.current(game)
    board = public_form(engine)
    finished = game.is_finished or is_closed(game)
    return {
        **game_summary(game),
        "columns": board["columns"],
        "foundations": board["foundations"],
        "undo_depth": board["undo_depth"] if not finished else 0,
        "legal_moves": board["legal_moves"] if not finished else [],
        "can_finish": not finished and every_card_face_up(engine),
    }


def daily_result(game: Game) -> DailyResult:
    """The lobby's `result` event for a ranked daily game: enough to refresh a ranking."""
    return {
        "daily": game.daily_date.isoformat() if game.daily_date else None,
        "rule": game.rule,
        "game": game.pk,
        "player": game.owner.get_username(),
        "status": game.status,
        "moves": game.move_count,
        "elapsed_seconds": round(game.elapsed().total_seconds(), 3),
        "cards_on_foundations": game.cards_on_foundations,
        "score": game.score,
        "assisted": game.assisted,
    }
