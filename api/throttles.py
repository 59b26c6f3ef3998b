"""Throttles: login, registration and guests per client address, moves and all else per player.

Each throttle that lets a request through (or stops it) leaves its state on the
request; `api.middleware.RateLimitHeaders` writes the tightest one into every API
answer as the IETF draft headers `RateLimit-Limit`, `RateLimit-Remaining` and
`RateLimit-Reset` (seconds until the window frees up).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    from django.http import HttpRequest
    from rest_framework.request import Request
    from rest_framework.views import APIView

from ops import redis_clients
from ops.client_address import client_address, throttle_key

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RateLimit:
    """One throttle's view of a request: its quota, what is left of it, when it frees up."""

    limit: int
    remaining: int
    reset_seconds: int

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
        }


RATE_LIMIT_ATTRIBUTE = "yukon_rate_limit"


def note_rate_limit(request: HttpRequest, limit: RateLimit) -> None:
    """Keep the tightest limit seen for this request (the one a client must respect)."""
    seen: RateLimit | None = getattr(request, RATE_LIMIT_ATTRIBUTE, None)
    if seen is None or limit.remaining < seen.remaining:
        setattr(request, RATE_LIMIT_ATTRIBUTE, limit)


def noted_rate_limit(request: HttpRequest) -> RateLimit | None:
    return getattr(request, RATE_LIMIT_ATTRIBUTE, None)


class ClientThrottle(SimpleRateThrottle):
    """Knows a client by `ops.client_address`: DRF's own reads X-Forwarded-For from anyone.

    An IPv6 client counts by its network (`THROTTLE_IPV6_PREFIX` bits, a /64 by default):
    `ops.client_address.throttle_key`.
    """

    # Set by SimpleRateThrottle.__init__ from the rate (the stubs leave them out).
    num_requests: int
    duration: int

    def get_ident(self, request: Request) -> str:
        return throttle_key(client_address(request))


class LoginThrottle(ClientThrottle):
    """Counts every login attempt per address, signed in or not: slows password guessing."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: Request, view: APIView) -> bool:
        allowed = super().allow_request(request, view)
        if self.rate is not None:
            # DRF's sliding window: the history holds this window's requests, newest first.
            remaining = max(0, self.num_requests - len(self.history))
            oldest = self.history[-1] if self.history else self.now
            reset = math.ceil(max(0.0, self.duration - (self.now - oldest)))
            note_rate_limit(request._request, RateLimit(self.num_requests, remaining, reset))
        return allowed


class RegisterThrottle(LoginThrottle):
    scope = "register"


class GuestThrottle(LoginThrottle):
    """Guest accounts per address: one click makes a real row, so scripts must not flood it."""

    scope = "guest"


# A throttle never holds a move longer than this on a slow Redis (it then fails open).
COUNTER_TIMEOUT_SECONDS = 0.5


class WindowThrottle(ClientThrottle):
    """A counter per player (else per address) per fixed window.

    One Redis round trip (INCR and EXPIRE pipelined), not DRF's sliding window,
    which reads and rewrites the pickled timestamps of every request in the
    window (up to 1,200 per player) with two round trips per request. The price:
    a burst straddling two windows can briefly pass up to twice the rate. Fails
    open: when its Redis is down, requests still go through (like pushes).
    """

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str:
        # A request answered before authentication ran (a redirect, a 503) has no user.
        user = getattr(request, "user", None)
        player = user.pk if user is not None and user.is_authenticated else None
        ident = player or self.get_ident(request)  # type: ignore[arg-type]
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Request | HttpRequest, view: APIView | None) -> bool:
        allowed, limit = self._count_one(self.get_cache_key(request, view))
        if limit is not None:
            note_rate_limit(getattr(request, "_request", request), limit)
        return allowed

    def allow_player(self, player_id: int) -> bool:
        """The same count for a write that comes without an HTTP request (the game's websocket),
        so a player's moves share one quota whichever door they take."""
        return self._count_one(self.cache_format % {"scope": self.scope, "ident": player_id})[0]

    def _count_one(self, key: str) -> tuple[bool, RateLimit | None]:
        """Count one request under `key` in this window: whether it may pass, and the limit
        left (None when nothing was counted: no rate, or no Redis, which fails open)."""
        if self.rate is None:
            return True, None
        now = time.time()
        window = int(now // self.duration)
        self.retry_after = (window + 1) * self.duration - now
        try:
            count = _count(f"{key}:{window}", self.duration)
        except RedisError:
            logger.warning("%s throttle skipped: no cache", self.scope, exc_info=True)
            return True, None
        remaining = max(0, self.num_requests - count)
        limit = RateLimit(self.num_requests, remaining, math.ceil(self.retry_after))
        return count <= self.num_requests, limit

    def wait(self) -> float:
        return self.retry_after


class MoveThrottle(WindowThrottle):
    """Generous enough for fast play (20 moves a second sustained), stops runaway scripts."""

    scope = "moves"


class ApiThrottle(WindowThrottle):
    """Every other API request: a ceiling no client playing or reading normally comes near.

    The default throttle of every view; views with their own (login, moves) count there.
    """

    scope = "api"


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
