"""Closing the websockets a token opened, in every process, once the token is revoked.

A socket authenticated by a token joins that token's group (`token_group`); deleting
the token (the API, the admin, or its player's deletion) sends `token.revoked` to the
group after the commit, and each consumer in it closes with 4401.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete

from accounts.models import ApiToken
from games import push_transport

REVOKED = {"type": "token.revoked"}


def token_group(token_id: int) -> str:
    return f"token-{token_id}"


def _revoked(sender: type[ApiToken], instance: ApiToken, **kwargs: Any) -> None:
    push_transport.send_on_commit(token_group(instance.pk), REVOKED)


def connect_signals() -> None:
    post_delete.connect(_revoked, sender=ApiToken, dispatch_uid="api.realtime.revocation")
