"""The public state of a game: what players, spectators and websockets see.

Built from the engine's public form, which never holds a face-down card's
identity, plus the game row's metadata. REST answers and websocket pushes use
this one function so both channels send the same shape.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.daily import hides_code
from games.engine import Game as EngineGame
from games.models import Game


def engine_game(game: Game) -> EngineGame:
    return EngineGame.from_private(game.state)


def game_summary(game: Game, *, now: datetime | None = None) -> dict[str, Any]:
    """The list/lobby form: metadata without the board (a running daily deal's code hidden)."""
    return {
        "id": game.pk,
        "owner": game.owner.get_username(),
        "code": None if hides_code(game) else game.code,
        "daily": game.daily_date.isoformat() if game.daily_date else None,
        "ranked": game.ranked,
        "rule": game.rule,
        "status": game.status,
        "version": game.version,
        "score": game.score,
        "move_count": game.move_count,
        "cards_on_foundations": game.cards_on_foundations,
        "elapsed_seconds": round(game.elapsed(now or timezone.now()).total_seconds(), 3),
        "assisted": game.assisted,
        "created_at": game.created_at.isoformat(),
        "first_move_at": game.first_move_at.isoformat() if game.first_move_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def game_state(game: Game, engine: EngineGame | None = None) -> dict[str, Any]:
    """The full public state: summary, board, undo depth and the legal moves (none once over)."""
    board = (engine or engine_game(game)).to_public()
    state = game_summary(game)
    state.update(
        columns=board["columns"],
        foundations=board["foundations"],
        undo_depth=board["undo_depth"] if not game.is_finished else 0,
        legal_moves=board["legal_moves"] if not game.is_finished else [],
    )
    return state


def daily_result(game: Game) -> dict[str, Any]:
    """The lobby's `result` event for a ranked daily game: enough to refresh a ranking."""
    return {
        "daily": game.daily_date.isoformat() if game.daily_date else None,
        "game": game.pk,
        "player": game.owner.get_username(),
        "status": game.status,
        "moves": game.move_count,
        "elapsed_seconds": round(game.elapsed().total_seconds(), 3),
        "cards_on_foundations": game.cards_on_foundations,
        "score": game.score,
        "assisted": game.assisted,
    }
