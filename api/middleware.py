"""Rate-limit headers on every API answer (the IETF draft's RateLimit-Limit/-Remaining/-Reset)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from api.throttles import ApiThrottle, noted_rate_limit


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
            ApiThrottle().allow_request(request, None)
            limit = noted_rate_limit(request)
        if limit is not None:
            for name, value in limit.headers().items():
                response[name] = value
        return response
