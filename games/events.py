"""Publishing game events to the channel layer, after the transaction commits.

Messages are versioned `{"v": version, "t": type, "d": data}` envelopes (the
protocol is in docs/realtime.md). A push is best-effort and bounded in time: if
the layer is down or slow the move still stands, the failure is logged, and
clients catch up by resync.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"

# A move never waits longer than this for the channel layer (redis-py would otherwise
# retry a dead Redis with back-off for seconds).
PUSH_TIMEOUT_SECONDS = 0.5

# Game messages that also announce a light `game-progress` summary to the lobby.
PROGRESS_TYPES = frozenset({"move", "undo"})

# The parts of the REST state that make it a board rather than a summary.
BOARD_KEYS = frozenset({"columns", "foundations", "undo_depth", "legal_moves"})


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def summary_of(state: dict[str, Any]) -> dict[str, Any]:
    """The lobby's summary of a game (`games.public.game_summary`'s shape) cut from its state."""
    return {key: value for key, value in state.items() if key not in BOARD_KEYS}


async def _bounded_group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    await asyncio.wait_for(layer.group_send(group, message), PUSH_TIMEOUT_SECONDS)


def layer_message(envelope: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer form: the envelope encoded once, here, plus what consumers sort by.

    Every consumer in every process forwards the same text instead of re-encoding it.
    """
    text = json.dumps(envelope)
    return {"type": "push.message", "v": envelope["v"], "t": envelope["t"], "text": text}


def _send(group: str, envelope: dict[str, Any]) -> None:
    try:
        async_to_sync(_bounded_group_send)(group, layer_message(envelope))
    except Exception:
        logger.warning(
            "push %s v%s to %s failed; clients will resync",
            envelope["t"],
            envelope["v"],
            group,
            exc_info=True,
        )


def publish(group: str, version: int, event_type: str, data: dict[str, Any]) -> None:
    """Queue an envelope for `group`, sent only once the current transaction commits.

    A move or an undo also tells the lobby, with the game's summary (no board).
    """
    envelope = {"v": version, "t": event_type, "d": data}
    transaction.on_commit(lambda: _send(group, envelope))
    if event_type in PROGRESS_TYPES:
        progress = {"v": version, "t": "game-progress", "d": summary_of(data["state"])}
        transaction.on_commit(lambda: _send(LOBBY_GROUP, progress))
