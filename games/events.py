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
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"

# (group, envelope) pairs published together, in this order, after one commit.
Sends = list[tuple[str, dict[str, Any]]]

# A move never waits longer than this for the channel layer: a hung or unreachable
# Redis must not hold the player's request.
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


_publisher: asyncio.AbstractEventLoop | None = None
_publisher_lock = threading.Lock()


def _publisher_loop() -> asyncio.AbstractEventLoop:
    """The process's long-lived publishing loop, in a daemon thread started on first use.

    `async_to_sync` outside an ASGI server builds a fresh loop per call, and
    channels_redis keeps its connection pool per loop: every push opened a new
    Redis connection. One loop keeps one pool.
    """
    global _publisher
    with _publisher_lock:
        if _publisher is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="push-publisher", daemon=True).start()
            _publisher = loop
    return _publisher


async def _group_send_all(layer: BaseChannelLayer, sends: Sends) -> None:
    async def send_in_order() -> None:
        for group, envelope in sends:
            await layer.group_send(group, layer_message(envelope))

    await asyncio.wait_for(send_in_order(), PUSH_TIMEOUT_SECONDS)


def layer_message(envelope: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer form: the envelope encoded once, here, plus what consumers sort by.

    Every consumer in every process forwards the same text instead of re-encoding it.
    """
    text = json.dumps(envelope)
    return {"type": "push.message", "v": envelope["v"], "t": envelope["t"], "text": text}


def _send(sends: Sends) -> None:
    """Hand the envelopes to the layer, in order, within the time bound; log a failure."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if isinstance(layer, InMemoryChannelLayer):
            # Its queues belong to the consumers' loop in this same process: publish there.
            async_to_sync(_group_send_all)(layer, sends)
        else:
            future = asyncio.run_coroutine_threadsafe(
                _group_send_all(layer, sends), _publisher_loop()
            )
            future.result(timeout=2 * PUSH_TIMEOUT_SECONDS)
    except Exception:
        first = sends[0][1]
        logger.warning(
            "push %s v%s to %s failed; clients will resync",
            first["t"],
            first["v"],
            sends[0][0],
            exc_info=True,
        )


def publish(group: str, version: int, event_type: str, data: dict[str, Any]) -> None:
    """Queue an envelope for `group`, sent only once the current transaction commits.

    A move or an undo also tells the lobby, with the game's summary (no board).
    """
    sends: Sends = [(group, {"v": version, "t": event_type, "d": data})]
    if event_type in PROGRESS_TYPES:
        progress = {"v": version, "t": "game-progress", "d": summary_of(data["state"])}
        sends.append((LOBBY_GROUP, progress))
    transaction.on_commit(lambda: _send(sends))
