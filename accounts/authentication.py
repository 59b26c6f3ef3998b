"""DRF authentication by personal API token (`Authorization: Bearer yk_...`)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.models import ApiToken, hash_token

LAST_USED_RESOLUTION = timedelta(minutes=5)


def user_for_token(raw: str) -> tuple[AbstractBaseUser, ApiToken] | None:
    """The active user owning this raw token, or None. Shared by REST and websockets."""
    token = ApiToken.objects.select_related("user").filter(key_hash=hash_token(raw)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


class BearerTokenAuthentication(BaseAuthentication):
    keyword = b"bearer"

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed("The Authorization header must be 'Bearer <token>'.")
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed("The token contains invalid characters.") from None
        found = user_for_token(raw)
        if found is None:
            raise AuthenticationFailed("Unknown or revoked API token.")
        return found

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
