"""Throttles: login and registration per client address, moves per player."""

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class LoginThrottle(AnonRateThrottle):
    """Counts every login attempt per address, signed in or not: slows password guessing."""

    scope = "login"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RegisterThrottle(LoginThrottle):
    scope = "register"


class MoveThrottle(UserRateThrottle):
    """Generous enough for fast play (20 moves a second sustained), stops runaway scripts."""

    scope = "moves"
