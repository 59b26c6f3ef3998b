"""Two-factor sign-in through the API: setting it up, signing in with a code or a recovery
code, a replayed code, the brute-force throttle, turning it off."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pyotp
import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import two_factor
from accounts.models import RecoveryCode, TwoFactor
from tests.support.play import post, token_client

PASSWORD = "correct horse battery"  # alice's (tests/conftest.py)
#: A moment in the middle of a 30 s step, so a test's steps are the ones it counts.
START = datetime(2026, 12, 7, 12, 0, 10, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    cache.clear()


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def turn_on(client: APIClient) -> tuple[pyotp.TOTP, list[str]]:
    """Set two-factor sign-in up as a player would: scan the secret, type the first code."""
    setup = client.post("/api/v1/me/two-factor/setup")
    assert setup.status_code == 201, setup.content
    assert setup.json()["qr_svg"].startswith("data:image/svg+xml;base64,")
    totp = pyotp.TOTP(setup.json()["secret"])
    assert totp.secret in setup.json()["otpauth_uri"]
    confirmed = post(client, "/api/v1/me/two-factor/confirm", {"code": totp.now()})
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["enabled"] is True
    return totp, confirmed.json()["recovery_codes"]


def log_in(code: str | None = None, client: APIClient | None = None) -> Any:
    body = {"username": "alice", "password": PASSWORD}
    if code is not None:
        body["code"] = code
    return post(client or APIClient(), "/api/v1/auth/login", body)


def error_code(response: Any) -> str:
    return str(response.json()["error"]["code"])


def test_setting_it_up_gives_ten_recovery_codes_stored_hashed(
    alice: User, clock: time_machine.Traveller
) -> None:
    client = signed_in(alice)
    assert client.get("/api/v1/me/two-factor").json() == {
        "enabled": False,
        "recovery_codes_left": 0,
    }
    _, codes = turn_on(client)
    assert len(set(codes)) == 10
    stored = set(RecoveryCode.objects.filter(user=alice).values_list("code_hash", flat=True))
    assert len(stored) == 10 and not stored & set(codes)
    assert client.get("/api/v1/me/two-factor").json() == {
        "enabled": True,
        "recovery_codes_left": 10,
    }


def test_a_wrong_first_code_leaves_it_off(alice: User, clock: time_machine.Traveller) -> None:
    client = signed_in(alice)
    client.post("/api/v1/me/two-factor/setup")
    refused = post(client, "/api/v1/me/two-factor/confirm", {"code": "000000"})
    assert (refused.status_code, error_code(refused)) == (403, "wrong-second-factor")
    assert not two_factor.is_on(alice)
    assert log_in().status_code == 200


def test_signing_in_needs_the_apps_code_once_it_is_on(
    alice: User, clock: time_machine.Traveller
) -> None:
    totp, _ = turn_on(signed_in(alice))
    clock.shift(timedelta(seconds=30))
    asked = log_in()
    assert (asked.status_code, error_code(asked)) == (401, "second-factor-required")
    assert "code" in asked.json()["error"]["message"]
    client = APIClient()
    assert log_in("123456", client).status_code == 403
    assert client.get("/api/v1/auth/me").status_code == 401  # not signed in
    assert log_in(totp.now(), client).status_code == 200
    assert client.get("/api/v1/auth/me").json()["username"] == "alice"


def test_a_wrong_password_says_nothing_of_the_second_factor(
    alice: User, clock: time_machine.Traveller
) -> None:
    turn_on(signed_in(alice))
    answer = post(APIClient(), "/api/v1/auth/login", {"username": "alice", "password": "nope"})
    assert (answer.status_code, error_code(answer)) == (401, "bad-credentials")


def test_a_code_is_accepted_once(alice: User, clock: time_machine.Traveller) -> None:
    totp, _ = turn_on(signed_in(alice))
    clock.shift(timedelta(seconds=30))
    code = totp.now()
    assert log_in(code).status_code == 200
    replayed = log_in(code)
    assert (replayed.status_code, error_code(replayed)) == (403, "second-factor-reused")
    # Nor a code of a step before the one used (still within the clock drift allowed).
    clock.shift(timedelta(seconds=30))
    earlier = totp.at(START + timedelta(seconds=30))
    assert error_code(log_in(earlier)) == "second-factor-reused"
    assert log_in(totp.now()).status_code == 200


def test_the_code_of_the_setup_cannot_sign_in(alice: User, clock: time_machine.Traveller) -> None:
    totp, _ = turn_on(signed_in(alice))
    assert error_code(log_in(totp.now())) == "second-factor-reused"


def test_a_recovery_code_signs_in_once_in_any_case(
    alice: User, clock: time_machine.Traveller
) -> None:
    client = signed_in(alice)
    _, codes = turn_on(client)
    assert log_in(codes[0].lower().replace("-", " ")).status_code == 200
    assert error_code(log_in(codes[0])) == "wrong-second-factor"
    assert client.get("/api/v1/me/two-factor").json()["recovery_codes_left"] == 9


def test_new_recovery_codes_replace_the_old_ones(
    alice: User, clock: time_machine.Traveller
) -> None:
    client = signed_in(alice)
    totp, old = turn_on(client)
    clock.shift(timedelta(seconds=30))
    fresh = post(client, "/api/v1/me/two-factor/recovery-codes", {"code": totp.now()})
    assert fresh.status_code == 200 and len(fresh.json()["recovery_codes"]) == 10
    assert error_code(log_in(old[1])) == "wrong-second-factor"
    assert log_in(fresh.json()["recovery_codes"][0]).status_code == 200


def test_brute_force_on_the_code_is_throttled_then_refused(
    alice: User, clock: time_machine.Traveller
) -> None:
    totp, _ = turn_on(signed_in(alice))
    clock.shift(timedelta(seconds=30))
    wrong = [log_in(f"{n:06d}") for n in range(two_factor.MAX_FAILURES)]
    assert {error_code(answer) for answer in wrong} == {"wrong-second-factor"}
    # Now even the right code is refused, from any address, until the window ends.
    locked = log_in(totp.now())
    assert (locked.status_code, error_code(locked)) == (429, "second-factor-throttled")
    wait = locked.json()["error"]["retry_after_seconds"]
    assert 0 < wait <= two_factor.FAILURE_WINDOW.total_seconds()
    clock.shift(timedelta(seconds=wait))
    assert log_in(totp.now()).status_code == 200
    assert TwoFactor.objects.get(user=alice).failures == 0


def test_turning_it_off_needs_a_current_code(alice: User, clock: time_machine.Traveller) -> None:
    client = signed_in(alice)
    totp, _ = turn_on(client)
    clock.shift(timedelta(seconds=30))
    assert error_code(post(client, "/api/v1/me/two-factor/disable", {"code": "1"})) == (
        "wrong-second-factor"
    )
    assert post(client, "/api/v1/me/two-factor/disable", {}).status_code == 400
    off = post(client, "/api/v1/me/two-factor/disable", {"code": totp.now()})
    assert off.json() == {"enabled": False, "recovery_codes_left": 0}
    assert log_in().status_code == 200
    assert not RecoveryCode.objects.filter(user=alice).exists()


def test_each_step_refuses_out_of_order(alice: User, clock: time_machine.Traveller) -> None:
    client = signed_in(alice)
    unstarted = post(client, "/api/v1/me/two-factor/confirm", {"code": "123456"})
    assert (unstarted.status_code, error_code(unstarted)) == (409, "two-factor-not-started")
    off = post(client, "/api/v1/me/two-factor/disable", {"code": "123456"})
    assert (off.status_code, error_code(off)) == (409, "two-factor-off")
    turn_on(client)
    again = client.post("/api/v1/me/two-factor/setup")
    assert (again.status_code, error_code(again)) == (409, "two-factor-already-on")
    confirmed_twice = post(client, "/api/v1/me/two-factor/confirm", {"code": "123456"})
    assert error_code(confirmed_twice) == "two-factor-already-on"


def test_a_token_cannot_touch_it(alice: User) -> None:
    client = token_client(alice)
    for method, path in [
        ("get", "/api/v1/me/two-factor"),
        ("post", "/api/v1/me/two-factor/setup"),
        ("post", "/api/v1/me/two-factor/disable"),
    ]:
        answer = getattr(client, method)(path, {"code": "123456"}, format="json")
        assert (answer.status_code, error_code(answer)) == (403, "security-needs-session")


def test_check_second_factor_is_what_other_services_call(
    alice: User, clock: time_machine.Traveller
) -> None:
    totp, codes = turn_on(signed_in(alice))
    clock.shift(timedelta(seconds=30))
    two_factor.check_second_factor(alice, totp.now())
    with pytest.raises(two_factor.SecondFactorReused):
        two_factor.check_second_factor(alice, totp.now())
    two_factor.check_second_factor(alice, codes[3])


def test_the_admin_signs_in_on_the_apps_log_in_page(alice: User) -> None:
    """The admin's own form would take the password alone: it sends to the app's page, which
    asks for the second factor, and back."""
    alice.is_staff = True
    alice.save()
    client = APIClient()
    answer = client.get("/admin/")
    assert answer.status_code == 302
    answer = client.get(answer["Location"])
    assert (answer.status_code, answer["Location"]) == (302, "/login?next=/admin/")
    posted = client.post("/admin/login/", {"username": "alice", "password": PASSWORD})
    assert posted.status_code == 302
    assert client.get("/api/v1/auth/me").status_code == 401
