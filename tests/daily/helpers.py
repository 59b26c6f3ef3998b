"""Daily-deal test helpers: the fixed day, winning play through the services, a lobby listener."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, date, datetime, time
from typing import Any, cast

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User

from games import deals, services
from games.engine import GameCode
from games.engine.solver import solve
from games.models import Game
from games.pushes import LOBBY_GROUP

DAY = date(2026, 12, 1)


def at(day: date, hour: int = 12) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=UTC)


def winning_moves(game: Game) -> list[str]:
    """A winning line for the game's deal from the solver (daily deals are proven winnable)."""
    engine = deals.new_game(GameCode.parse(game.code))
    # An optional setting (games.daily reads it with a default), set by conftest.
    result = solve(engine, node_budget=settings.DAILY_SOLVER_NODES)  # type: ignore[misc]
    assert result.verdict == "winnable", result
    return [str(move) for move in result.line]


def win(player: User, game: Game, *, step: Callable[[], None] | None = None) -> Game:
    """Play the solver's line through the services (each move a real write)."""
    for move in winning_moves(game):
        game = services.play_move(player, game.pk, move=move, version=game.version).game
        if step is not None:
            step()
    assert game.status == Game.Status.WON
    return game


def play_daily(player: User) -> Game:
    return services.start_game(player, daily=True)


def abandon(player: User, game: Game) -> Game:
    return services.resign(player, game.pk, version=game.version).game


class Lobby:
    """A listener on the lobby group of the in-memory channel layer."""

    def __init__(self) -> None:
        self.layer = cast(InMemoryChannelLayer, get_channel_layer())  # the tests' layer
        self.channel = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(LOBBY_GROUP, self.channel)

    def until(self, event_type: str, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Every envelope up to and including the first of `event_type` (waits for it)."""

        async def receive() -> dict[str, Any]:
            return await asyncio.wait_for(self.layer.receive(self.channel), timeout)

        seen: list[dict[str, Any]] = []
        while not seen or seen[-1]["t"] != event_type:
            seen.append(json.loads(async_to_sync(receive)()["text"]))
        return seen


def left_from_before(player: User, ranked: Game) -> Game:
    """A practice game of the ranked attempt's deal, as one could start before rehearsals
    were refused (tests/daily/test_rehearsal.py): the games help must still wait on."""
    return Game.objects.create(
        owner=player,
        code=ranked.code,
        rule=ranked.rule,
        state=ranked.state,
        daily_date=ranked.daily_date,
        origin=Game.Origin.DAILY_PRACTICE,
    )
