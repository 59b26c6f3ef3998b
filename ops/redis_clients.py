"""Synchronous Redis clients for the request path, one per URL and timeout per process.

Why not Django's cache API for hot counters: its Redis backend builds a new
client object for every operation and pickles values; a shared client with its
own connection pool does one round trip for what the request needs.
"""

from __future__ import annotations

import threading

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

_clients: dict[tuple[str, float], redis.Redis] = {}
_lock = threading.Lock()


def client(url: str, timeout: float) -> redis.Redis:
    """The process's client for `url`: thread-safe, every command bounded by `timeout` seconds.

    A connection that died with a restarted Redis is replaced once; a slow Redis is
    not retried, so the bound holds.
    """
    with _lock:
        found = _clients.get((url, timeout))
        if found is None:
            found = _clients[(url, timeout)] = redis.Redis.from_url(
                url,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
            )
    return found
