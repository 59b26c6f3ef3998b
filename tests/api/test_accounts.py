"""Accounts: registration, session login with CSRF, throttles, personal API tokens."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import ApiToken, hash_token
from api.throttles import GuestThrottle
from ops.client_address import throttle_key
from tests.support.play import post

if TYPE_CHECKING:
    from rest_framework.response import _MonkeyPatchedResponse

PASSWORD = "a-long-enough-passphrase"


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    cache.clear()


def csrf_client() -> APIClient:
    return APIClient(enforce_csrf_checks=True)


def csrf_post(
    client: APIClient, path: str, body: dict[str, object] | None = None
) -> _MonkeyPatchedResponse:
    token = client.cookies["csrftoken"].value
    return client.post(path, body or {}, format="json", HTTP_X_CSRFTOKEN=token)


@pytest.mark.django_db
class TestRegistration:
    def test_it_creates_the_player_and_signs_in(self) -> None:
        client = APIClient()
        response = post(
            client, "/api/v1/auth/register", {"username": "carol", "password": PASSWORD}
        )
        assert response.status_code == 201
        assert response.json()["username"] == "carol"
        assert response.json()["settings"]["double_click"] is True
        assert response.json()["settings"]["auto_placement"] is False
        assert client.get("/api/v1/auth/me").json()["username"] == "carol"

    def test_passwords_are_hashed_with_argon2(self) -> None:
        post(APIClient(), "/api/v1/auth/register", {"username": "carol", "password": PASSWORD})
        assert User.objects.get(username="carol").password.startswith("argon2")

    def test_it_rejects_a_taken_username_case_insensitively(self, alice: User) -> None:
        response = post(
            APIClient(), "/api/v1/auth/register", {"username": "ALICE", "password": PASSWORD}
        )
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "username-taken"
        assert "username" in response.json()["error"]["fields"]

    def test_it_rejects_a_weak_password(self) -> None:
        response = post(
            APIClient(), "/api/v1/auth/register", {"username": "dave", "password": "123"}
        )
        assert response.status_code == 400
        assert "password" in response.json()["error"]["fields"]

    def test_registration_is_throttled(self) -> None:
        client = APIClient()
        statuses = [
            post(
                client, "/api/v1/auth/register", {"username": f"u{i}", "password": "x"}
            ).status_code
            for i in range(6)
        ]
        assert statuses[:5] == [400] * 5
        assert statuses[5] == 429


@pytest.mark.django_db
class TestLogin:
    def test_session_login_me_and_logout_with_csrf(self, alice: User) -> None:
        client = csrf_client()
        assert client.get("/api/v1/auth/csrf").status_code == 204
        response = csrf_post(
            client, "/api/v1/auth/login", {"username": "alice", "password": "correct horse battery"}
        )
        assert response.status_code == 200
        assert client.get("/api/v1/auth/me").json()["username"] == "alice"
        assert csrf_post(client, "/api/v1/auth/logout").status_code == 204
        assert client.get("/api/v1/auth/me").status_code == 401

    def test_session_writes_without_csrf_are_refused(self, alice: User) -> None:
        client = csrf_client()
        client.login(username="alice", password="correct horse battery")
        response = client.post("/api/v1/games", {}, format="json")
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "permission-denied"
        assert "CSRF" in response.json()["error"]["message"]

    def test_wrong_password_is_401(self, alice: User) -> None:
        response = post(
            APIClient(), "/api/v1/auth/login", {"username": "alice", "password": "nope"}
        )
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "bad-credentials"

    def test_login_is_throttled_with_retry_after(self, alice: User) -> None:
        client = APIClient()
        body = {"username": "alice", "password": "wrong"}
        statuses = [post(client, "/api/v1/auth/login", body).status_code for _ in range(11)]
        assert statuses[:10] == [401] * 10
        throttled = post(client, "/api/v1/auth/login", body)
        assert throttled.status_code == 429
        assert int(throttled["Retry-After"]) > 0
        assert throttled.json()["error"]["code"] == "throttled"

    @pytest.mark.parametrize("path", ["/api/v1/auth/login", "/api/v1/auth/register"])
    def test_a_forged_forwarded_header_does_not_lift_the_throttle(self, path: str) -> None:
        client = APIClient()
        body = {"username": "alice", "password": "wrong"}
        status = 0
        for _ in range(11):
            status = post(client, path, body).status_code
        assert status == 429
        forged = [
            client.post(path, body, format="json", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
            for i in range(5)
        ]
        assert [response.status_code for response in forged] == [429] * 5


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/auth/login", "/api/v1/auth/guest"])
def test_an_ipv6_64_network_shares_one_throttle_bucket(path: str) -> None:
    """Every address of one /64 counts as one client (one home or server holds 2^64 of
    them); a neighbouring /64 has its own bucket."""
    body = {"username": "alice", "password": "wrong"}
    scope, limit = ("login", 10) if path.endswith("login") else ("guest", 300)
    # The /64's bucket as `limit - 3` earlier requests from it left it (DRF's history), so
    # the guest ceiling (300 an hour) is reached without making 300 guests.
    key = GuestThrottle.cache_format % {"scope": scope, "ident": throttle_key("2001:db8:7:1::99")}
    cache.set(key, [time.time()] * (limit - 3), 3600)

    def send(peer: str) -> int:
        return int(APIClient(REMOTE_ADDR=peer).post(path, body, format="json").status_code)

    statuses = [send(f"2001:db8:7:1::{index + 1:x}") for index in range(3)]
    assert 429 not in statuses
    assert send("2001:db8:7:1:ffff:ffff:ffff:fffe") == 429
    assert send("2001:db8:7:2::1") != 429


def signed_in(user: User) -> APIClient:
    """A browser-like client on a real session (token management needs one)."""
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.django_db
class TestTokens:
    def test_create_list_use_and_revoke(self, alice: User) -> None:
        session = signed_in(alice)
        created = post(session, "/api/v1/tokens", {"name": "my bot"})
        assert created.status_code == 201
        raw = created.json()["token"]
        assert raw.startswith("yk_")
        listed = session.get("/api/v1/tokens").json()
        assert [t["name"] for t in listed] == ["my bot"]
        assert "token" not in listed[0]

        bot = APIClient()
        bot.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert bot.get("/api/v1/auth/me").json()["username"] == "alice"
        assert post(bot, "/api/v1/games", {}).status_code == 201

        assert session.delete(f"/api/v1/tokens/{created.json()['id']}").status_code == 204
        refused = bot.get("/api/v1/auth/me")
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "authentication-failed"

    @pytest.mark.parametrize("method", ["get", "post", "delete"])
    def test_a_token_cannot_manage_tokens(self, alice: User, method: str) -> None:
        token, raw = ApiToken.issue(alice, "leaked")
        bot = APIClient()
        bot.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        path = f"/api/v1/tokens/{token.pk}" if method == "delete" else "/api/v1/tokens"
        response = getattr(bot, method)(path, {"name": "another"}, format="json")
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "session-required"
        assert "session" in response.json()["error"]["message"]
        assert list(ApiToken.objects.filter(user=alice)) == [token]

    def test_a_script_gets_its_first_token_with_a_session_login_and_csrf(self, alice: User) -> None:
        client = csrf_client()
        body = {"username": "alice", "password": "correct horse battery"}
        assert post(client, "/api/v1/auth/login", body).status_code == 200  # no CSRF yet
        assert client.post("/api/v1/tokens", {"name": "bot"}, format="json").status_code == 403
        created = csrf_post(client, "/api/v1/tokens", {"name": "bot"})
        assert created.status_code == 201
        bot = APIClient()
        bot.credentials(HTTP_AUTHORIZATION=f"Bearer {created.json()['token']}")
        assert bot.get("/api/v1/auth/me").json()["username"] == "alice"

    def test_tokens_are_stored_hashed(self, alice: User) -> None:
        token, raw = ApiToken.issue(alice, "x")
        stored = ApiToken.objects.get(pk=token.pk)
        assert raw not in (stored.key_hash, stored.prefix)
        assert stored.key_hash == hash_token(raw)

    def test_nobody_revokes_another_players_token(self, alice: User, bob: User) -> None:
        token, _ = ApiToken.issue(alice, "x")
        assert signed_in(bob).delete(f"/api/v1/tokens/{token.pk}").status_code == 404
        assert ApiToken.objects.filter(pk=token.pk).exists()

    def test_a_malformed_authorization_header_is_401(self) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Bearer")
        assert client.get("/api/v1/auth/me").status_code == 401


@pytest.mark.django_db
def test_settings_can_be_read_and_changed(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    assert client.get("/api/v1/me/settings").json()["placement_help"] is True
    response = client.patch("/api/v1/me/settings", {"auto_placement": True}, format="json")
    assert response.status_code == 200
    assert response.json()["auto_placement"] is True
    assert client.patch("/api/v1/me/settings", {"language": "xx"}, format="json").status_code == 400


@pytest.mark.django_db
def test_the_look_and_sounds_are_stored_and_checked(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    stored = client.get("/api/v1/me/settings").json()
    assert (stored["card_back"], stored["table_colour"], stored["sounds"]) == (
        "blue",
        "green",
        False,
    )
    changed = {"card_back": "night", "table_colour": "wine", "sounds": True}
    assert client.patch("/api/v1/me/settings", changed, format="json").json() | changed == (
        client.get("/api/v1/me/settings").json()
    )
    refused = client.patch("/api/v1/me/settings", {"card_back": "plaid"}, format="json")
    assert refused.status_code == 400
    assert "card_back" in refused.json()["error"]["fields"]
    assert client.get("/api/v1/me/settings").json()["card_back"] == "night"
