"""DRF authentication by personal API token (`Authorization: Bearer yk_...`)."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.models import ApiToken, hash_token
from ops import sql

LAST_USED_RESOLUTION = timedelta(minutes=5)

# Every API request runs this lookup: one statement built once (ops/sql.py says why).
_TOKEN = sql.Columns(ApiToken, "t")
_USER = sql.Columns(get_user_model(), "u")
_TOKEN_LOOKUP = (
    f"SELECT {_TOKEN.sql}, {_USER.sql} FROM {sql.quote(ApiToken._meta.db_table)} t"
    f" JOIN {sql.quote(_USER.model._meta.db_table)} u"
    f" ON u.{sql.quote_column(_USER.model._meta.pk)} = t.{sql.quote_column(ApiToken.user.field)}"
    " WHERE t.key_hash = %s"
)


def user_for_token(raw: str) -> tuple[User, ApiToken] | None:
    """The active user owning this raw token, or None. Shared by REST and websockets.

    Read on every request, never cached: a revoked token or a deactivated player is
    refused from the next request on.
    """
    found = sql.fetch_instances(_TOKEN_LOOKUP, [hash_token(raw)], _TOKEN, _USER)
    if found is None:
        return None
    token, user = found
    assert isinstance(token, ApiToken)
    token.user = cast(User, user)  # _USER reads users
    if not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


class BearerTokenAuthentication(BaseAuthentication):
    keyword = b"bearer"

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(_("The Authorization header must be 'Bearer <token>'."))
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(_("The token contains invalid characters.")) from None
        found = user_for_token(raw)
        if found is None:
            raise AuthenticationFailed(_("Unknown or revoked API token."))
        return found

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
