"""Sessions and devices through the API: the list, signing one out, everywhere else, and
last seen kept without a write on every request."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import SignedInSession
from accounts.sessions import LAST_SEEN_RESOLUTION, SEEN_KEY, address_prefix, describe_agent
from tests.support.play import post, token_client

PASSWORD = "correct horse battery"  # alice's (tests/conftest.py)
FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0"
SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1"
)
START = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    cache.clear()


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def device(user_agent: str, address: str) -> APIClient:
    """alice signing in with her password from a device at `address`."""
    client = APIClient(HTTP_USER_AGENT=user_agent, REMOTE_ADDR=address)
    answer = post(client, "/api/v1/auth/login", {"username": "alice", "password": PASSWORD})
    assert answer.status_code == 200, answer.content
    return client


def listed(client: APIClient) -> list[dict[str, Any]]:
    answer = client.get("/api/v1/me/sessions")
    assert answer.status_code == 200, answer.content
    return list(answer.json())


def signed_in(client: APIClient) -> bool:
    return bool(client.get("/api/v1/auth/me").status_code == 200)


def test_the_list_names_each_device_and_marks_this_one(
    alice: User, clock: time_machine.Traveller
) -> None:
    laptop = device(FIREFOX, "203.0.113.45")
    clock.shift(timedelta(minutes=1))
    phone = device(SAFARI, "2001:db8:1234:5678::9")
    sessions = listed(laptop)
    assert [(s["browser"], s["place"], s["current"]) for s in sessions] == [
        ("Safari on iOS", "2001:db8:1234::/48", False),
        ("Firefox on Windows", "203.0.113.x", True),
    ]
    assert sessions[1]["last_seen"] == "2026-12-07T12:00:00Z"
    assert [s["current"] for s in listed(phone)] == [True, False]


def test_signing_out_another_session_ends_it_there(alice: User) -> None:
    laptop = device(FIREFOX, "203.0.113.45")
    phone = device(SAFARI, "198.51.100.7")
    other = next(s for s in listed(laptop) if not s["current"])
    assert laptop.delete(f"/api/v1/me/sessions/{other['id']}").status_code == 204
    assert not signed_in(phone)
    assert signed_in(laptop)
    assert [s["browser"] for s in listed(laptop)] == ["Firefox on Windows"]


def test_signing_out_this_session_signs_out(alice: User) -> None:
    laptop = device(FIREFOX, "203.0.113.45")
    this = listed(laptop)[0]
    assert laptop.delete(f"/api/v1/me/sessions/{this['id']}").status_code == 204
    assert not signed_in(laptop)
    assert not SignedInSession.objects.exists()


def test_signing_out_everywhere_else_keeps_this_session(alice: User) -> None:
    laptop = device(FIREFOX, "203.0.113.45")
    others = [device(SAFARI, "198.51.100.7"), device("curl/8.14.1", "198.51.100.8")]
    answer = laptop.post("/api/v1/me/sessions/sign-out-others")
    assert answer.json() == {"signed_out": 2}
    assert signed_in(laptop)
    assert not any(signed_in(client) for client in others)
    assert [s["current"] for s in listed(laptop)] == [True]


def test_signing_out_and_expiry_take_the_session_off_the_list(
    alice: User, clock: time_machine.Traveller
) -> None:
    laptop = device(FIREFOX, "203.0.113.45")
    phone = device(SAFARI, "198.51.100.7")
    assert phone.post("/api/v1/auth/logout").status_code == 204
    assert len(listed(laptop)) == 1
    clock.shift(timedelta(weeks=3))  # past SESSION_COOKIE_AGE: the laptop's has expired
    assert not signed_in(laptop)
    assert [s["current"] for s in listed(device(SAFARI, "198.51.100.7"))] == [True]


def test_another_players_session_is_not_found(alice: User, bob: User) -> None:
    device(FIREFOX, "203.0.113.45")
    theirs = SignedInSession.objects.get(user=alice)
    bobs = APIClient()
    bobs.force_login(bob)
    answer = bobs.delete(f"/api/v1/me/sessions/{theirs.pk}")
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "session-not-found")
    assert SignedInSession.objects.filter(pk=theirs.pk).exists()


def test_a_token_cannot_list_or_end_sessions(alice: User) -> None:
    client = token_client(alice)
    for answer in (
        client.get("/api/v1/me/sessions"),
        client.post("/api/v1/me/sessions/sign-out-others"),
    ):
        assert (answer.status_code, answer.json()["error"]["code"]) == (
            403,
            "security-needs-session",
        )


def test_last_seen_is_written_only_every_few_minutes(
    alice: User, clock: time_machine.Traveller
) -> None:
    laptop = device(FIREFOX, "203.0.113.45")
    clock.shift(LAST_SEEN_RESOLUTION - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        assert signed_in(laptop)
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]
    assert listed(laptop)[0]["last_seen"] == "2026-12-07T12:00:00Z"
    clock.shift(timedelta(seconds=2))
    assert signed_in(laptop)
    assert listed(laptop)[0]["last_seen"] == "2026-12-07T12:05:01Z"


def test_a_session_from_before_the_list_is_recorded_when_seen(alice: User) -> None:
    client = APIClient(HTTP_USER_AGENT=FIREFOX)
    client.force_login(alice)
    # As for a session signed in before sessions were recorded: no row, no last seen.
    SignedInSession.objects.all().delete()
    session = client.session
    del session[SEEN_KEY]
    session.save()
    assert client.get("/api/v1/auth/me").status_code == 200  # seen (noted after its answer)
    assert [s["browser"] for s in listed(client)] == ["Firefox on Windows"]


@pytest.mark.parametrize(
    ("address", "prefix"),
    [
        ("203.0.113.45", "203.0.113.x"),
        ("2001:db8:1234:5678::9", "2001:db8:1234::/48"),
        ("unix-socket", ""),
    ],
)
def test_a_place_is_only_an_address_prefix(address: str, prefix: str) -> None:
    assert address_prefix(address) == prefix


@pytest.mark.parametrize(
    ("agent", "browser"),
    [
        (FIREFOX, "Firefox on Windows"),
        (SAFARI, "Safari on iOS"),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "HeadlessChrome/141.0.0.0 Safari/537.36",
            "Chrome on Linux",
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like "
            "Gecko) Chrome/141.0.0.0 Safari/537.36 Edg/141.0.0.0",
            "Edge on macOS",
        ),
        ("python-requests/2.32.5", "python-requests"),
        ("", ""),
    ],
)
def test_the_browser_is_read_from_the_user_agent(agent: str, browser: str) -> None:
    assert describe_agent(agent) == browser
