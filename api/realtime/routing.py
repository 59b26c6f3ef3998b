"""Websocket routes, version 1 (the protocol is in docs/realtime.md).

A path no route takes (an unknown feed, a room code of another alphabet or with a NUL
byte, a game id that is no number) reaches `NoSuchFeed`, which closes with 4404 as for
a game or race that does not exist: Channels' router would raise instead, and the
handshake would die with no close code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.urls import path, re_path

import api.converters  # noqa: F401 (registers <room:...> and <arena:...>)
from api.realtime.arena_feed import ArenaFeedConsumer
from api.realtime.consumers import CLOSE_NO_GAME, GameConsumer, LobbyConsumer, PushConsumer
from api.realtime.race_feed import RaceFeedConsumer

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern


class NoSuchFeed(PushConsumer):
    """Any websocket path no feed serves: closed with 4404 before any credential or
    database is consulted (its `required_scope` is the default, never reached)."""

    async def connect(self) -> None:
        await self.refuse(CLOSE_NO_GAME)


# django-stubs type `path` for views only; Channels routes ASGI apps with it, patterns that
# channels-stubs call _ExtendedURLPattern.
websocket_urlpatterns = cast(
    "list[_ExtendedURLPattern | URLRouter]",
    [
        path("ws/v1/games/<int:game_id>/", GameConsumer.as_asgi()),  # type: ignore[arg-type]
        path("ws/v1/lobby/", LobbyConsumer.as_asgi()),  # type: ignore[arg-type]
        path("ws/v1/races/<room:room>/", RaceFeedConsumer.as_asgi()),  # type: ignore[arg-type]
        path("ws/v1/arenas/<arena:arena>/", ArenaFeedConsumer.as_asgi()),  # type: ignore[arg-type]
        re_path(r"", NoSuchFeed.as_asgi()),  # type: ignore[arg-type]
    ],
)
