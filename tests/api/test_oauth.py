"""OAuth2 for third-party apps: registration, consent, PKCE, refresh, revocation, scopes."""

from __future__ import annotations

import base64
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, RefreshToken
from rest_framework.test import APIClient

from accounts.models import TradedCode
from tests.support.oauth import (
    Pkce,
    authorize_url,
    code_from_redirect,
    consent_form,
    obtain_tokens,
    register_app,
    signed_in,
    token_form,
)

pytestmark = pytest.mark.django_db


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_a_registered_app_gets_scoped_tokens_through_pkce(alice: User) -> None:
    player = signed_in(alice)
    app = register_app(player)
    assert app["client_secret"] is None and not app["confidential"]
    tokens = obtain_tokens(player, app["client_id"], "game:read game:play")
    assert tokens["access_token"].startswith("yko_")
    assert tokens["refresh_token"].startswith("ykr_")
    assert set(tokens["scope"].split()) == {"game:read", "game:play"}
    client = bearer(tokens["access_token"])
    assert client.post("/api/v1/games", {}, format="json").status_code == 201
    refused = client.get("/api/v1/auth/me")
    assert refused.status_code == 403
    assert refused.json()["error"] == {
        "code": "missing-scope",
        "scope": "account:read",
        "message": refused.json()["error"]["message"],
    }
    assert "account:read" in refused.json()["error"]["message"]


def test_tokens_and_secrets_are_stored_hashed(alice: User) -> None:
    player = signed_in(alice)
    app = register_app(player, confidential=True)
    assert app["client_secret"]
    stored = Application.objects.get(client_id=app["client_id"])
    assert app["client_secret"] not in stored.client_secret
    tokens = obtain_tokens(player, app["client_id"], "game:read", app["client_secret"])
    access = AccessToken.objects.get()
    refresh = RefreshToken.objects.get()
    assert access.token == "" and refresh.token == ""
    assert tokens["access_token"] not in access.token_checksum


def test_pkce_is_required_and_only_s256(alice: User) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    pkce = Pkce.new()
    for method in ("plain", None):
        form = consent_form(client_id, pkce, "game:read")
        if method is None:
            del form["code_challenge"], form["code_challenge_method"]
        else:
            form["code_challenge_method"] = method
        answer = player.post("/oauth/authorize/", form)
        assert "code=" not in answer.get("Location", ""), method
    allowed = player.post("/oauth/authorize/", consent_form(client_id, pkce, "game:read"))
    code = code_from_redirect(allowed["Location"])
    wrong = token_form(client_id, code, Pkce.new())
    assert Client().post("/oauth/token/", wrong).status_code == 400


def test_refresh_replaces_the_access_token(alice: User) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    tokens = obtain_tokens(player, client_id, "account:read")
    form = {"grant_type": "refresh_token", "client_id": client_id}
    renewed = Client().post("/oauth/token/", {**form, "refresh_token": tokens["refresh_token"]})
    assert renewed.status_code == 200, renewed.content
    fresh = renewed.json()
    assert fresh["access_token"] != tokens["access_token"]
    assert bearer(fresh["access_token"]).get("/api/v1/auth/me").status_code == 200
    assert bearer(tokens["access_token"]).get("/api/v1/auth/me").status_code == 401
    reused = Client().post("/oauth/token/", {**form, "refresh_token": tokens["refresh_token"]})
    assert reused.status_code == 400


def test_revocation_stops_the_token(alice: User) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    tokens = obtain_tokens(player, client_id, "account:read")
    client = bearer(tokens["access_token"])
    assert client.get("/api/v1/auth/me").status_code == 200
    revoked = Client().post(
        "/oauth/revoke_token/", {"token": tokens["access_token"], "client_id": client_id}
    )
    assert revoked.status_code == 200
    assert client.get("/api/v1/auth/me").status_code == 401


def test_denying_consent_sends_no_code(alice: User) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    form = consent_form(client_id, Pkce.new(), "game:read")
    del form["allow"]
    denied = player.post("/oauth/authorize/", form)
    assert denied.status_code == 302
    assert "error=access_denied" in denied["Location"] and "code=" not in denied["Location"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "use your Yukon account"),
        ("hu", "Yukon-fiókodat"),
        ("pt", "sua conta Yukon"),
        ("de", "dein Yukon-Konto"),
    ],
)
def test_the_consent_page_speaks_the_players_language(
    alice: User, language: str, words: str
) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    page = player.get(
        authorize_url(client_id, Pkce.new(), "game:read account:read"),
        headers={"accept-language": language},
    )
    text = page.content.decode()
    assert f'<html lang="{language}">' in text
    assert words in text
    assert "Solver bot" in text


def test_an_anonymous_visitor_is_sent_to_log_in_and_back(alice: User) -> None:
    url = authorize_url(register_app(signed_in(alice))["client_id"], Pkce.new(), "game:read")
    answer = Client().get(url)
    assert answer.status_code == 302
    assert answer["Location"].startswith("/login?next=/oauth/authorize/")


def test_apps_are_managed_with_the_session_only(alice: User, bob: User) -> None:
    player = signed_in(alice)
    app = register_app(player)
    tokens = obtain_tokens(player, app["client_id"], "account:read account:write")
    client = bearer(tokens["access_token"])
    refused = client.get("/api/v1/oauth/apps")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "session-required"
    assert signed_in(bob).delete(f"/api/v1/oauth/apps/{app['id']}").status_code == 404
    assert [listed["name"] for listed in player.get("/api/v1/oauth/apps").json()] == ["Solver bot"]
    assert player.delete(f"/api/v1/oauth/apps/{app['id']}").status_code == 204
    assert client.get("/api/v1/auth/me").status_code == 401


def test_a_bad_redirect_uri_is_a_400_naming_the_field(alice: User) -> None:
    body = {"name": "x", "redirect_uris": ["ftp://example.com/cb"]}
    answer = signed_in(alice).post("/api/v1/oauth/apps", body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid-request"


def consented_code(player: Client, client_id: str, scopes: str) -> tuple[str, Pkce]:
    """An authorization code the signed-in player granted, and its PKCE verifier."""
    pkce = Pkce.new()
    allowed = player.post("/oauth/authorize/", consent_form(client_id, pkce, scopes))
    assert allowed.status_code == 302, allowed.content
    return code_from_redirect(allowed["Location"]), pkce


def test_a_replayed_code_is_refused_and_revokes_the_tokens_it_issued(alice: User) -> None:
    """RFC 6749 section 4.1.2: a code used twice is refused, and what it issued is revoked
    (a replay means the code leaked: whoever traded it first may be the thief)."""
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    kept = obtain_tokens(player, client_id, "account:read")  # another code: untouched
    code, pkce = consented_code(player, client_id, "account:read")
    traded = Client().post("/oauth/token/", token_form(client_id, code, pkce))
    assert traded.status_code == 200, traded.content
    tokens = traded.json()
    assert bearer(tokens["access_token"]).get("/api/v1/auth/me").status_code == 200
    replayed = Client().post("/oauth/token/", token_form(client_id, code, pkce))
    assert replayed.status_code == 400
    assert replayed.json()["error"] == "invalid_grant"
    assert bearer(tokens["access_token"]).get("/api/v1/auth/me").status_code == 401
    form = {"grant_type": "refresh_token", "client_id": client_id}
    refused = Client().post("/oauth/token/", {**form, "refresh_token": tokens["refresh_token"]})
    assert refused.status_code == 400
    assert bearer(kept["access_token"]).get("/api/v1/auth/me").status_code == 200


def test_a_replay_after_a_refresh_revokes_the_refreshed_tokens_too(alice: User) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    code, pkce = consented_code(player, client_id, "account:read")
    tokens = Client().post("/oauth/token/", token_form(client_id, code, pkce)).json()
    form = {"grant_type": "refresh_token", "client_id": client_id}
    renewed = Client().post("/oauth/token/", {**form, "refresh_token": tokens["refresh_token"]})
    assert renewed.status_code == 200, renewed.content
    fresh = renewed.json()
    assert bearer(fresh["access_token"]).get("/api/v1/auth/me").status_code == 200
    replayed = Client().post("/oauth/token/", token_form(client_id, code, pkce))
    assert replayed.status_code == 400
    assert bearer(fresh["access_token"]).get("/api/v1/auth/me").status_code == 401
    again = Client().post("/oauth/token/", {**form, "refresh_token": fresh["refresh_token"]})
    assert again.status_code == 400
    assert not AccessToken.objects.filter(user=alice).exists()


def test_the_consent_page_is_never_stored(alice: User) -> None:
    """It carries the request's state and PKCE challenge: no cache may keep it."""
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    page = player.get(authorize_url(client_id, Pkce.new(), "game:read"))
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]


@pytest.mark.parametrize(
    "uri",
    [
        "https://user:pw@example.com/cb",
        "https://user@example.com/cb",
        "http://a:b@127.0.0.1:8765/callback",
        "https://example.com/cb#fragment",
    ],
)
def test_a_redirect_uri_with_credentials_or_a_fragment_is_a_400(alice: User, uri: str) -> None:
    """RFC 6749 section 3.1.2: no fragment; and userinfo only disguises where codes go."""
    body = {"name": "x", "redirect_uris": ["https://example.com/ok", uri]}
    answer = signed_in(alice).post("/api/v1/oauth/apps", body, content_type="application/json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "invalid-request"
    assert list(error["fields"]) == ["redirect_uris"]
    assert not Application.objects.exists()


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/oauth/token/", {"grant_type": "authorization_code", "client_id": "\0", "code": "a"}),
        ("/oauth/token/", {"grant_type": "authorization_code", "code": "a\0b"}),
        ("/oauth/token/", {"grant_type": "refresh_token", "refresh_token": "ykr_\0"}),
        ("/oauth/revoke_token/", {"token": "a", "client_id": "\0"}),
        ("/oauth/revoke_token/", {"token": "yko_\0"}),
    ],
)
def test_a_nul_byte_in_an_oauth_request_is_an_invalid_request(
    alice: User, path: str, form: dict[str, str]
) -> None:
    """PostgreSQL refuses NUL in a query: it was a 500 on these endpoints."""
    client_id = register_app(signed_in(alice))["client_id"]
    answer = Client(raise_request_exception=False).post(path, {"client_id": client_id, **form})
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "invalid_request"


def test_a_nul_byte_in_basic_credentials_or_a_repeated_field_is_an_invalid_request(
    alice: User,
) -> None:
    client_id = register_app(signed_in(alice))["client_id"]
    form = {"grant_type": "authorization_code", "code": "a"}
    basic = base64.b64encode(b"%00:secret").decode()
    answer = Client().post("/oauth/token/", form, headers={"authorization": f"Basic {basic}"})
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "invalid_request"
    body = f"grant_type=authorization_code&code=a&client_id={client_id}&code=%00"
    repeated = Client().post(
        "/oauth/token/", body, content_type="application/x-www-form-urlencoded"
    )
    assert repeated.status_code == 400, repeated.content
    assert repeated.json()["error"] == "invalid_request"


def test_a_nul_byte_on_the_consent_page_is_an_invalid_request(alice: User) -> None:
    player = signed_in(alice)
    player.raise_request_exception = False
    answer = player.get("/oauth/authorize/?response_type=code&client_id=%00")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "invalid_request"


def test_trades_are_forgotten_once_their_refresh_tokens_have_expired(
    alice: User, settings: Any
) -> None:
    player = signed_in(alice)
    client_id = register_app(player)["client_id"]
    obtain_tokens(player, client_id, "account:read")
    lifetime = settings.OAUTH2_PROVIDER["REFRESH_TOKEN_EXPIRE_SECONDS"]
    TradedCode.objects.update(traded_at=timezone.now() - timedelta(seconds=lifetime + 60))
    obtain_tokens(player, client_id, "account:read")
    assert TradedCode.objects.count() == 1
    assert TradedCode.objects.get().traded_at > timezone.now() - timedelta(minutes=5)
