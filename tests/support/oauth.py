"""The OAuth2 authorization code flow with PKCE, as a third-party app runs it."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from django.contrib.auth.models import User
from django.test import Client

REDIRECT_URI = "http://127.0.0.1:8765/callback"


@dataclass(frozen=True)
class Pkce:
    """A code verifier and its S256 challenge (RFC 7636)."""

    verifier: str
    challenge: str

    @classmethod
    def new(cls) -> Pkce:
        verifier = secrets.token_urlsafe(48)
        digest = hashlib.sha256(verifier.encode("ascii")).digest()
        return cls(verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii"))


def authorize_url(client_id: str, pkce: Pkce, scopes: str, state: str = "s1") -> str:
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT_URI,
        "scope": scopes,
        "state": state,
        "code_challenge": pkce.challenge,
        "code_challenge_method": "S256",
    }
    return "/oauth/authorize/?" + urlencode(query)


def consent_form(client_id: str, pkce: Pkce, scopes: str, state: str = "s1") -> dict[str, str]:
    """What the consent page's form posts when the player allows (its hidden fields)."""
    return {
        "client_id": client_id,
        "redirect_uri": REDIRECT_URI,
        "response_type": "code",
        "scope": scopes,
        "state": state,
        "code_challenge": pkce.challenge,
        "code_challenge_method": "S256",
        "allow": "Authorize",
    }


def code_from_redirect(location: str) -> str:
    query = parse_qs(urlparse(location).query)
    assert "code" in query, f"no code in the redirect {location}"
    return query["code"][0]


def token_form(client_id: str, code: str, pkce: Pkce) -> dict[str, str]:
    return {
        "grant_type": "authorization_code",
        "client_id": client_id,
        "code": code,
        "redirect_uri": REDIRECT_URI,
        "code_verifier": pkce.verifier,
    }


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def register_app(session: Client, **extra: Any) -> dict[str, Any]:
    body = {"name": "Solver bot", "redirect_uris": [REDIRECT_URI], **extra}
    response = session.post("/api/v1/oauth/apps", body, content_type="application/json")
    assert response.status_code == 201, response.content
    return dict(response.json())


def obtain_tokens(
    player: Client, client_id: str, scopes: str, secret: str | None = None
) -> dict[str, Any]:
    """Consent as the signed-in player, then trade the code for tokens (an anonymous client)."""
    pkce = Pkce.new()
    page = player.get(authorize_url(client_id, pkce, scopes))
    assert page.status_code == 200, page.content
    allowed = player.post("/oauth/authorize/", consent_form(client_id, pkce, scopes))
    assert allowed.status_code == 302, allowed.content
    assert allowed["Location"].startswith(REDIRECT_URI)
    code = code_from_redirect(allowed["Location"])
    form = token_form(client_id, code, pkce)
    if secret is not None:
        form["client_secret"] = secret
    answer = Client().post("/oauth/token/", form)
    assert answer.status_code == 200, answer.content
    return dict(answer.json())
