"""DRF authentication by Bearer token: a personal token (`yk_...`) or an OAuth one (`yko_...`).

Both kinds resolve to a `TokenGrant`: whose token it is and which scopes it holds.
The endpoint's scope (`required_scope` on the view, `accounts.scopes`) is checked
right here, so no view can forget it: a token lacking it gets 403 `missing-scope`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from oauth2_provider.models import get_access_token_model
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.models import TOKEN_PREFIX, ApiToken, hash_token
from accounts.oauth import ACCESS_TOKEN_PREFIX, live_access_token
from accounts.scopes import check_scope, parse_scopes
from ops import sql

LAST_USED_RESOLUTION = timedelta(minutes=5)

TokenKind = Literal["personal", "oauth"]


@dataclass(frozen=True)
class TokenGrant:
    """What a Bearer token lets its holder do: act as `user` within `scopes`."""

    user: User
    scopes: frozenset[str]
    kind: TokenKind
    token_id: int
    #: When the token stops working (OAuth access tokens; personal tokens never expire).
    expires_at: datetime | None = None


# Every API request runs this lookup: one statement built once (ops/sql.py says why).
_TOKEN = sql.Columns(ApiToken, "t")
_USER = sql.Columns(get_user_model(), "u")
_TOKEN_LOOKUP = (
    f"SELECT {_TOKEN.sql}, {_USER.sql} FROM {sql.quote(ApiToken._meta.db_table)} t"
    f" JOIN {sql.quote(_USER.model._meta.db_table)} u"
    f" ON u.{sql.quote_column(_USER.model._meta.pk)} = t.{sql.quote_column(ApiToken.user.field)}"
    " WHERE t.key_hash = %s"
)


def _personal_grant(raw: str) -> TokenGrant | None:
    found = sql.fetch_instances(_TOKEN_LOOKUP, [hash_token(raw)], _TOKEN, _USER)
    if found is None:
        return None
    token, user = found
    assert isinstance(token, ApiToken)
    token.user = cast(User, user)  # _USER reads users
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return TokenGrant(token.user, token.scope_set, "personal", token.pk)


def _oauth_grant(raw: str) -> TokenGrant | None:
    token = live_access_token(raw)
    if token is None or token.user is None:
        return None
    return TokenGrant(token.user, parse_scopes(token.scope), "oauth", token.pk, token.expires)


def grant_for_token(raw: str) -> TokenGrant | None:
    """What this raw token grants to its active owner, or None. Shared by REST and websockets.

    Read on every request, never cached: a revoked or expired token, or a deactivated
    player, is refused from the next request on.
    """
    if raw.startswith(ACCESS_TOKEN_PREFIX):
        grant = _oauth_grant(raw)
    elif raw.startswith(TOKEN_PREFIX):
        grant = _personal_grant(raw)
    else:
        return None
    if grant is None or not grant.user.is_active:
        return None
    return grant


def token_stands(kind: TokenKind, token_id: int) -> bool:
    """The token still exists and its owner is active (a socket's check after joining)."""
    if kind == "personal":
        return ApiToken.objects.filter(pk=token_id, user__is_active=True).exists()
    tokens = get_access_token_model().objects
    return bool(
        tokens.filter(pk=token_id, user__is_active=True, expires__gt=timezone.now()).exists()
    )


def token_refusal(view: object) -> Exception | None:
    """What a token is told on a view that takes the session only (`api.permissions.
    SessionOnly` and its kinds, each with its own `refusal`): that, not that it lacks a
    scope which would not help. None where tokens are served."""
    for kind in getattr(view, "permission_classes", ()):
        if getattr(kind, "refuses_tokens", False):
            refusal: Exception = kind.refusal()
            return refusal
    return None


class BearerTokenAuthentication(BaseAuthentication):
    keyword = b"bearer"

    def authenticate(self, request: Request) -> tuple[User, TokenGrant] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(_("The Authorization header must be 'Bearer <token>'."))
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(_("The token contains invalid characters.")) from None
        grant = grant_for_token(raw)
        if grant is None:
            raise AuthenticationFailed(_("Unknown or revoked API token."))
        # The view being served (DRF's parser context names it).
        view = request.parser_context.get("view")
        refusal = token_refusal(view)
        if refusal is not None:
            raise refusal
        check_scope(grant.scopes, getattr(view, "required_scope", None), request.method or "")
        return grant.user, grant

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
