"""Signed-in sessions and devices: what the sessions page lists, and signing one out.

Django keeps sessions in the database; each signed-in one gets a `SignedInSession`
beside it (the device's user agent, its address cut to a prefix, when it was last
seen), written when the player signs in and deleted with the session. Last seen is
kept in the session itself too, so a request only writes when `LAST_SEEN_RESOLUTION`
has passed: one UPDATE every few minutes per active session, not one per request.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address
from typing import Any

from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import transaction
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import SignedInSession
from ops.client_address import client_address
from ops.errors import ServiceError

LAST_SEEN_RESOLUTION = timedelta(minutes=5)
#: The session key holding when this session was last recorded as seen (epoch seconds).
SEEN_KEY = "yukon_seen"
IPV6_PREFIX = 48


#: Sent with `session_keys` when a player signs sessions out from another one, so that what
#: they hold open (websockets: api.realtime.revocation) closes too.
signed_out = Signal()


class SessionNotFound(ServiceError):
    code = "session-not-found"
    status = 404
    message = _("You have no signed-in session with that id (it may have signed out already).")


def address_prefix(address: str) -> str:
    """Where roughly a device is: an IPv4 address with its last part hidden, or the IPv6 /48."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return ""
    if isinstance(parsed, IPv4Address):
        return ".".join(str(parsed).split(".")[:3]) + ".x"
    assert isinstance(parsed, IPv6Address)
    return str(IPv6Network((parsed, IPV6_PREFIX), strict=False))


#: Browsers by their user agent's tokens, most specific first (Edge and Opera say Chrome too,
#: and Chrome says Safari).
BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)
PRODUCT = re.compile(r"^([A-Za-z][\w.-]*)")


def describe_agent(user_agent: str) -> str:
    """A browser's name and system ("Firefox on Windows"); another client's product name."""
    browser = next((name for token, name in BROWSERS if token in user_agent), None)
    system = next((name for token, name in SYSTEMS if token in user_agent), None)
    if browser and system:
        return f"{browser} on {system}"
    if browser:
        return browser
    product = PRODUCT.match(user_agent)
    return product.group(1) if product else ""


def record(request: HttpRequest, user: User) -> None:
    """Note this request's session as `user`'s, seen now from this device."""
    session = request.session
    if session.session_key is None:
        session.save()  # a session flushed by the sign-in gets its key only when saved
    now = timezone.now()
    SignedInSession.objects.update_or_create(
        session_id=session.session_key,
        defaults={
            "user": user,
            "user_agent": request.headers.get("User-Agent", "")[:400],
            "address_prefix": address_prefix(client_address(request)),
            "last_seen": now,
        },
    )
    session[SEEN_KEY] = int(now.timestamp())


def signed_in(user: User, current_key: str | None) -> list[dict[str, Any]]:
    """The player's unexpired signed-in sessions, the one making the request marked."""
    rows = SignedInSession.objects.filter(user=user, session__expire_date__gt=timezone.now())
    return [
        {
            "id": row.pk,
            "browser": describe_agent(row.user_agent),
            "user_agent": row.user_agent,
            "place": row.address_prefix,
            "signed_in_at": row.signed_in_at,
            "last_seen": row.last_seen,
            "current": row.session_id == current_key,
        }
        for row in rows
    ]


def session_stands(session_key: str) -> bool:
    """The session still exists and has not expired (a socket's check after joining)."""
    return Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now()).exists()


def sign_out(user: User, session_id: int) -> str:
    """End one of the player's sessions; its key (the caller's own: sign it out there too)."""
    row = SignedInSession.objects.filter(user=user, pk=session_id).first()
    if row is None:
        raise SessionNotFound(f"{user.username} has no signed-in session {session_id}.")
    Session.objects.filter(session_key=row.session_id).delete()
    signed_out.send(SignedInSession, session_keys=[row.session_id])
    return row.session_id


def sign_out_others(user: User, current_key: str | None) -> int:
    """End every session of the player's but the one making the request; how many ended."""
    with transaction.atomic():
        keys = list(
            SignedInSession.objects.filter(user=user)
            .exclude(session_id=current_key)
            .values_list("session_id", flat=True)
        )
        Session.objects.filter(session_key__in=keys).delete()
        signed_out.send(SignedInSession, session_keys=keys)
    return len(keys)


def password_changed(request: HttpRequest, user: User) -> None:
    """After a password change: every other session ends (their sockets told), and this one
    stays signed in (Django gives it a new key) and listed."""
    sign_out_others(user, request.session.session_key)
    update_session_auth_hash(request, user)
    record(request, user)


class LastSeenMiddleware:
    """After authentication: keep a signed-in session's last seen within LAST_SEEN_RESOLUTION.

    Costs nothing on most requests (the time is read from the session already loaded); a
    session signed in before this was recorded (or by `force_login`) is recorded here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # After the answer, and only when it was served: a request refused for want of the
        # database (a dry pool's 503) must not wait on it once more here.
        if (
            response.status_code < 500
            and request.session.session_key is not None
            and request.user.is_authenticated
        ):
            seen = request.session.get(SEEN_KEY)
            stale = timezone.now().timestamp() - LAST_SEEN_RESOLUTION.total_seconds()
            if not isinstance(seen, int) or seen < stale:
                self._seen(request)
        return response

    @staticmethod
    def _seen(request: HttpRequest) -> None:
        now = timezone.now()
        updated = SignedInSession.objects.filter(session_id=request.session.session_key).update(
            last_seen=now
        )
        if updated:
            request.session[SEEN_KEY] = int(now.timestamp())
        else:
            assert isinstance(request.user, User)
            record(request, request.user)
