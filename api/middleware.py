"""Rate-limit headers on every API answer (the IETF draft's RateLimit-Limit/-Remaining/-Reset)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from api.throttles import ApiThrottle, noted_rate_limit
from ops.middleware import database_unavailable


class RateLimitHeaders:
    """Writes the tightest throttle state of the request into its answer.

    An answer given before any throttle ran (a refused token, an unknown URL under
    /api/) is counted by the general API throttle here, so it carries the headers
    too and a flood of such requests is limited like any other.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/"):
            return response
        limit = noted_rate_limit(request)
        if limit is None:
            try:
                ApiThrottle().allow_request(request, None)
            except Exception as exc:
                # Counting needs the player, whose session is in the database: when the
                # database is away (the 503 below us), the answer goes out without the headers.
                if not database_unavailable(exc):
                    raise
            limit = noted_rate_limit(request)
        if limit is not None:
            for name, value in limit.headers().items():
                response[name] = value
        return response
