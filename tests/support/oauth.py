"""The OAuth2 authorization code flow with PKCE, as a third-party app runs it."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlparse

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
