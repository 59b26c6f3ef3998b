"""Throttles: login, registration and guests per client address, moves per player."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

from ops import redis_clients
from ops.client_address import client_address

logger = logging.getLogger(__name__)


class ClientThrottle(SimpleRateThrottle):
    """Knows a client by `ops.client_address`: DRF's own reads X-Forwarded-For from anyone."""

    def get_ident(self, request: Request) -> str:
        return client_address(request)


class LoginThrottle(ClientThrottle):
    """Counts every login attempt per address, signed in or not: slows password guessing."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RegisterThrottle(LoginThrottle):
    scope = "register"


class GuestThrottle(LoginThrottle):
    """Guest accounts per address: one click makes a real row, so scripts must not flood it."""

    scope = "guest"


# A throttle never holds a move longer than this on a slow Redis (it then fails open).
COUNTER_TIMEOUT_SECONDS = 0.5


class MoveThrottle(ClientThrottle):
    """Generous enough for fast play (20 moves a second sustained), stops runaway scripts.

    A counter per player per fixed window (one Redis round trip: INCR and EXPIRE
    pipelined), not DRF's sliding window, which reads and rewrites the pickled
    timestamps of every request in the window (up to 1,200 per player) with two
    round trips per move. The price: a burst straddling two windows can briefly
    pass up to twice the rate. Fails open: when its Redis is down, moves still go
    through (like pushes).
    """

    scope = "moves"
    # Set by SimpleRateThrottle.__init__ from the rate (the stubs leave them out).
    num_requests: int
    duration: int

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        now = time.time()
        window = int(now // self.duration)
        self.retry_after = (window + 1) * self.duration - now
        key = f"{self.get_cache_key(request, view)}:{window}"
        try:
            return _count(key, self.duration) <= self.num_requests
        except RedisError:
            logger.warning("move throttle skipped: its cache is unreachable", exc_info=True)
            return True

    def wait(self) -> float:
        return self.retry_after


def _count(key: str, window_seconds: int) -> int:
    """This request's number in its window: shared through Redis, else the local cache."""
    if settings.REDIS_URL:
        pipe = redis_clients.client(settings.REDIS_URL, COUNTER_TIMEOUT_SECONDS).pipeline(
            transaction=False
        )
        pipe.incr(key)
        pipe.expire(key, 2 * window_seconds)
        return int(pipe.execute()[0])
    cache.add(key, 0, 2 * window_seconds)
    return int(cache.incr(key))
