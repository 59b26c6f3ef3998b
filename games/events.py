"""Publishing game events to the channel layer, after the transaction commits.

Messages are versioned `{"v": version, "t": type, "d": data}` envelopes. A push
is best-effort: if the layer is down the move still stands, the failure is
logged, and clients catch up by resync.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "push.message", "message": message})
    except Exception:
        logger.warning("push to %s failed; clients will resync", group, exc_info=True)


def publish(group: str, version: int, event_type: str, data: dict[str, Any]) -> None:
    """Queue an envelope for `group`, sent only once the current transaction commits."""
    envelope = {"v": version, "t": event_type, "d": data}
    transaction.on_commit(lambda: _send(group, envelope))
