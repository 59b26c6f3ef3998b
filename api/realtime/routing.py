"""Websocket routes (filled by the realtime consumers)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
