"""Where accounts play from, kept only as keyed hashes, for the fair-play list.

Each sign-in and each game start (a new game, the daily, a retry, a race room, a join, the
quick match or a rematch) notes a `PlaySource`: the account, a keyed hash of its address's
network (IPv4 /24, IPv6 /64: a household or a school, not one device) and a keyed hash of the
browser's `yukon_browser` cookie (a random id set here, kept across sign-outs so two
accounts in one browser share it; clients sending a token have none). The hashes are keyed
by `SECRET_KEY`, so the table names no address; one row per account, source and day, and
`purge` drops rows older than `FAIR_PLAY_DAYS` (`manage.py purge_play_sources`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from ipaddress import ip_network

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import PlaySource
from ops.client_address import client_address

COOKIE = "yukon_browser"
#: The routes whose successful POST starts a game or a race seat (api/urls.py names).
GAME_STARTS = frozenset(
    ("games", "daily-play", "game-retry", "races", "race-join", "race-queue", "race-rematch")
)
_ISSUED = "yukon.browser-issued"  # request.META key: a new browser id, for the response


def keyed(kind: str, value: str) -> str:
    """A keyed hash of `value`: equal values match, the value itself cannot be read back."""
    return salted_hmac(f"accounts.play_sources.{kind}", value, algorithm="sha256").hexdigest()[:32]


def network(address: str) -> str:
    """The /24 (IPv4) or /64 (IPv6) holding `address`; an unreadable address as it is."""
    try:
        return str(ip_network(f"{address}/{24 if ':' not in address else 64}", strict=False))
    except ValueError:
        return address


def browser_of(request: HttpRequest) -> str:
    """The request's browser id: its cookie, or a new one its response will set; none for a
    client sending a token (it is no browser)."""
    if "HTTP_AUTHORIZATION" in request.META:
        return ""
    known = request.COOKIES.get(COOKIE)
    return known or str(request.META.setdefault(_ISSUED, secrets.token_urlsafe(16)))


def note(request: HttpRequest, user: AbstractBaseUser) -> None:
    """Record that `user` plays from this request's network and browser today."""
    browser = browser_of(request)
    now = timezone.now()
    PlaySource.objects.bulk_create(
        [
            PlaySource(
                user_id=user.pk,
                address=keyed("address", network(client_address(request))),
                browser=keyed("browser", browser) if browser else "",
                day=now.date(),
                seen_at=now,
            )
        ],
        ignore_conflicts=True,
    )


def purge(days: int | None = None) -> int:
    """Delete the sources older than `days` (`FAIR_PLAY_DAYS`); how many went."""
    cutoff = timezone.now() - timedelta(days=days or settings.FAIR_PLAY_DAYS)
    deleted, _ = PlaySource.objects.filter(seen_at__lt=cutoff).delete()
    return deleted


def noted_at_sign_in(
    sender: object, request: HttpRequest, user: AbstractBaseUser, **_: object
) -> None:
    """The `user_logged_in` receiver (connected in `AccountsConfig.ready`)."""
    note(request, user)


class PlaySourceMiddleware:
    """Notes each game start (a POST to `GAME_STARTS` that succeeded) and sets the browser
    cookie when a source was recorded with a new id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = request.resolver_match
        if (
            request.method == "POST"
            and response.status_code < 300
            and match is not None
            and match.url_name in GAME_STARTS
            and request.user.is_authenticated
        ):
            note(request, request.user)
        issued = request.META.get(_ISSUED)
        if issued:
            response.set_cookie(
                COOKIE,
                issued,
                max_age=365 * 24 * 3600,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
