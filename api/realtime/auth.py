"""Websocket authentication: the session cookie (browser) or a token (other clients).

A personal token or an OAuth access token comes as `?token=...` (browsers cannot
set handshake headers) or as `Authorization: Bearer ...`. It wins over the
session, and the scope keeps its `TokenGrant` as `token_grant` (the consumer
checks its scopes and follows its revocation). A token that matches no active
user marks the scope with `auth_error`; the consumer then closes with 4401. No
credentials at all means an anonymous spectator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware

from accounts.authentication import grant_for_token

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope

Scope = dict[str, Any]


def token_from_scope(scope: Scope) -> str | None:
    """The raw token offered in the query string or a Bearer header, if any."""
    query: dict[str, list[str]] = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if "token" in query:
        return query["token"][0]
    name: bytes
    value: bytes
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, raw = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer":
                return raw.strip()
    return None


class TokenAuthMiddleware(BaseMiddleware):
    """Replaces the session's user with the token's owner when a token is offered."""

    # channels-stubs narrow the scope to a TypedDict without our keys (auth_error,
    # token_grant); ours is the plain ASGI dict, handed back to Channels as theirs.
    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:  # type: ignore[override]
        raw = token_from_scope(scope)
        if raw is not None:
            scope = dict(scope)
            grant = await database_sync_to_async(grant_for_token)(raw)
            if grant is None:
                scope["auth_error"] = "bad-token"
            else:
                scope["user"], scope["token_grant"] = grant.user, grant
        return await super().__call__(cast("_ChannelScope", scope), receive, send)


def TokenOrSessionAuthMiddlewareStack(inner: Any) -> Any:
    """Cookie + session + Django auth, then the token (named like Channels' own stack)."""
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
