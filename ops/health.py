"""Liveness and readiness probes for load balancers and orchestrators."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, cast

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse

if TYPE_CHECKING:
    from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper

logger = logging.getLogger(__name__)

PROBE_TIMEOUT_SECONDS = 2.0


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row: tuple[int] | None = cursor.fetchone()
            return row == (1,)
    except Exception:
        logger.warning("readiness: database unreachable", exc_info=True)
        return False


async def _layer_round_trip() -> None:
    # Never None: the settings always configure CHANNEL_LAYERS.
    layer = cast("BaseChannelLayer", get_channel_layer())
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "ops.ping"})
    await layer.receive(channel)


def channel_layer_ok() -> bool:
    """Send a message to ourselves through the layer: proves Redis (or memory) carries traffic."""
    try:
        async_to_sync(asyncio.wait_for)(_layer_round_trip(), PROBE_TIMEOUT_SECONDS)
        return True
    except Exception:
        logger.warning("readiness: channel layer unreachable", exc_info=True)
        return False


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers and reaches its database."""
    ok = database_ok()
    status = 200 if ok else 503
    return JsonResponse({"status": "ok" if ok else "fail", "database": ok}, status=status)


def pool(request: HttpRequest) -> JsonResponse:
    """This process's connection-pool counters, read without a database round trip.

    It answers even while the pool is dry, so an operator (and the robustness
    tests) can see connections that are checked out and never given back.
    `in_use` leaves out the connection this very request may hold.
    """
    # The PostgreSQL backend is the only one configured; only it has a pool.
    pool = cast("PostgresWrapper", connection).pool
    if pool is None:
        return JsonResponse({"pooled": False})
    stats = pool.get_stats()
    size, idle = stats.get("pool_size", 0), stats.get("pool_available", 0)
    own = 1 if connection.connection is not None else 0
    body = {
        "pooled": True,
        "max": pool.max_size,
        "size": size,
        "idle": idle,
        "in_use": size - idle - own,
        "waiting": stats.get("requests_waiting", 0),
    }
    return JsonResponse(body)


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: both the database and the channel layer answer."""
    checks = {"database": database_ok(), "channel_layer": channel_layer_ok()}
    ready = all(checks.values())
    body = {"status": "ready" if ready else "not-ready", **checks}
    return JsonResponse(body, status=200 if ready else 503)
