"""The OAuth2 side of django-oauth-toolkit as this service sets it up.

Third-party apps get access tokens through the authorization code flow with
PKCE (S256). The scopes are this service's own (`accounts.scopes`); tokens
carry a prefix so a Bearer value says which kind it is, and are stored only
as their SHA-256 checksum (RFC 9700 token storage). A code traded twice is
refused and revokes every token its first trade issued (`Validator`).
"""

from __future__ import annotations

import base64
import binascii
import functools
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import unquote_plus

from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauthlib.oauth2.rfc6749.errors import InvalidGrantError

from accounts.models import TradedCode, hash_token
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


def remember_trade(application: Any, code: str, token: dict[str, Any]) -> None:
    """Note which tokens `code` was traded for (by checksums), and forget trades old enough
    that their refresh tokens have expired."""
    refresh = token.get("refresh_token")
    family = (
        get_refresh_token_model()
        .objects.filter(token_checksum=hash_token(refresh))
        .values_list("token_family", flat=True)
        .first()
        if refresh
        else None
    )
    TradedCode.objects.create(
        application=application,
        code_checksum=hash_token(code),
        token_family=family,
        access_token_checksum=hash_token(token["access_token"]),
    )
    lifetime = oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS  # seconds, or a timedelta
    if not isinstance(lifetime, timedelta):
        lifetime = timedelta(seconds=lifetime)
    TradedCode.objects.filter(traded_at__lt=timezone.now() - lifetime).delete()


def revoke_trades(application: Any, code: str) -> int:
    """Revoke every token issued from `code` by `application`: the access token of each
    trade and the whole family of its refresh token (the tokens refreshes made from it
    too). Deleted access tokens close their websockets (api.realtime.revocation)."""
    trades = list(
        TradedCode.objects.filter(application=application, code_checksum=hash_token(code))
    )
    with transaction.atomic():
        for trade in trades:
            get_refresh_token_model().revoke_family(trade.token_family)
            get_access_token_model().objects.filter(
                token_checksum=trade.access_token_checksum
            ).delete()
    return len(trades)


class Validator(OAuth2Validator):  # type: ignore[misc]
    """The toolkit's validator, plus RFC 6749 section 4.1.2 on a replayed code: refuse it
    (the toolkit does) and revoke the tokens it issued before (this class does)."""

    def _save_bearer_token(
        self, token: dict[str, Any], request: Any, *args: Any, **kwargs: Any
    ) -> None:
        super()._save_bearer_token(token, request, *args, **kwargs)
        if request.grant_type == "authorization_code":
            remember_trade(request.client, request.code, token)

    def validate_code(
        self, client_id: str, code: str, client: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        if super().validate_code(client_id, code, client, request, *args, **kwargs):
            return True
        revoke_trades(client, code)  # a replay, if it was ever traded
        return False

    def invalidate_authorization_code(
        self, client_id: str, code: str, request: Any, *args: Any, **kwargs: Any
    ) -> None:
        try:
            super().invalidate_authorization_code(client_id, code, request, *args, **kwargs)
        except InvalidGrantError:
            # Two trades of one code at once: both passed `validate_code`, and this one found
            # the code gone after saving its tokens. Those are revoked with the other's.
            revoke_trades(request.client, code)
            raise


def _basic_credentials(request: HttpRequest) -> str:
    """The client's `Authorization: Basic` credentials as the toolkit reads them, or ''."""
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return ""
    try:
        return unquote_plus(base64.b64decode(encoded).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError):
        return ""  # the toolkit refuses it as it is


def _has_nul(request: HttpRequest) -> bool:
    """A NUL byte in a parameter's name or value (query, form or Basic credentials)."""
    texts = [_basic_credentials(request)]
    for params in (request.GET, request.POST):
        for name, values in params.lists():
            texts += [name, *values]
    return any("\0" in text for text in texts)


def refuse_nul_bytes(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """An OAuth endpoint's request with a NUL byte anywhere in its parameters is an
    `invalid_request` (400, OAuth's error form): PostgreSQL refuses NUL in a query, so the
    toolkit's lookups of a client id, code or token holding one ended in a 500."""

    @functools.wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _has_nul(request):
            body = {
                "error": "invalid_request",
                "error_description": "A parameter holds a NUL byte.",
            }
            return JsonResponse(body, status=400)
        return view(request, *args, **kwargs)

    return guarded
