"""Websocket routes, version 1 (the protocol is in docs/realtime.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.urls import path

from api.realtime.consumers import GameConsumer, LobbyConsumer
from api.realtime.races import RaceConsumer

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern

# django-stubs type `path` for views only; Channels routes ASGI apps with it, patterns that
# channels-stubs call _ExtendedURLPattern.
websocket_urlpatterns = cast(
    "list[_ExtendedURLPattern | URLRouter]",
    [
        path("ws/v1/games/<int:game_id>/", GameConsumer.as_asgi()),  # type: ignore[arg-type]
        path("ws/v1/lobby/", LobbyConsumer.as_asgi()),  # type: ignore[arg-type]
        path("ws/v1/races/<str:room>/", RaceConsumer.as_asgi()),  # type: ignore[arg-type]
    ],
)
