"""Closing the websockets a token opened, in every process, once the token is revoked; and
those a browser session opened, once the player signs that session out from another.

A socket authenticated by a token joins that token's group (`token_group`); deleting
the token sends `token.revoked` to the group after the commit, and each consumer in it
closes with 4401. Personal tokens are deleted by the API, the admin, or their player's
deletion; OAuth access tokens also by the app's revocation request (RFC 7009), a
refresh (which replaces them) or the app's deletion. A session's sockets join its group
(`session_group`), told `session.ended` by `accounts.sessions.signed_out`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models.signals import post_delete
from oauth2_provider.models import get_access_token_model

from accounts import sessions
from accounts.authentication import TokenKind
from accounts.models import ApiToken
from games import push_transport

REVOKED = {"type": "token.revoked"}
SIGNED_OUT = {"type": "session.ended"}


def token_group(kind: TokenKind, token_id: int) -> str:
    return f"token-{kind}-{token_id}"


def session_group(session_key: str) -> str:
    """A session's sockets, named by a digest of its key (group names travel to Redis)."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _sessions_signed_out(sender: Any, session_keys: list[str], **kwargs: Any) -> None:
    for key in session_keys:
        push_transport.send_on_commit(session_group(key), SIGNED_OUT)


def _personal_revoked(sender: type[ApiToken], instance: ApiToken, **kwargs: Any) -> None:
    push_transport.send_on_commit(token_group("personal", instance.pk), REVOKED)


def _oauth_revoked(sender: type[Any], instance: Any, **kwargs: Any) -> None:
    push_transport.send_on_commit(token_group("oauth", instance.pk), REVOKED)


def connect_signals() -> None:
    post_delete.connect(_personal_revoked, sender=ApiToken, dispatch_uid="api.realtime.revocation")
    post_delete.connect(
        _oauth_revoked, sender=get_access_token_model(), dispatch_uid="api.realtime.oauth"
    )
    sessions.signed_out.connect(_sessions_signed_out, dispatch_uid="api.realtime.sessions")
