"""The OAuth2 side of django-oauth-toolkit as this service sets it up.

Third-party apps get access tokens through the authorization code flow with
PKCE (S256). The scopes are this service's own (`accounts.scopes`); tokens
carry a prefix so a Bearer value says which kind it is, and are stored only
as their SHA-256 checksum (RFC 9700 token storage).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from accounts.models import hash_token
from accounts.scopes import SCOPES

ACCESS_TOKEN_PREFIX = "yko_"
REFRESH_TOKEN_PREFIX = "ykr_"


def new_access_token(request: Any) -> str:
    """oauthlib's token generator hook: a random token that names its kind."""
    return ACCESS_TOKEN_PREFIX + secrets.token_urlsafe(32)


def new_refresh_token(request: Any) -> str:
    return REFRESH_TOKEN_PREFIX + secrets.token_urlsafe(32)


class ServiceScopes:
    """The toolkit's scopes backend: those of `accounts.scopes`, offered to every app."""

    def get_all_scopes(self) -> dict[str, str]:
        return {name: str(description) for name, description in SCOPES.items()}

    def get_available_scopes(
        self, application: Any = None, request: Any = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(
        self, application: Any = None, request: Any = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        return ["game:read"]


def live_access_token(raw: str) -> Any | None:
    """The unexpired access token with this raw value (its user and app loaded), or None."""
    # The toolkit's checksum is the SHA-256 hex digest, the same as personal tokens'.
    return (
        get_access_token_model()
        .objects.select_related("user", "application")
        .filter(token_checksum=hash_token(raw), expires__gt=timezone.now())
        .first()
    )
