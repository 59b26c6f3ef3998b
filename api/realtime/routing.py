"""Websocket routes, version 1 (the protocol is in docs/realtime.md)."""

from django.urls import URLPattern, path

from api.realtime.consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/v1/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/v1/lobby/", LobbyConsumer.as_asgi()),
]
