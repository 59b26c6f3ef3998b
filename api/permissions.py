"""What only a signed-in browser session may do, never an API token."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from accounts.scopes import SessionRequired
from api.realtime.origin import parse_origin, trusted_origin
from games.errors import ServiceError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    class SignedInRequest(Request):
        """The request of a view behind IsAuthenticated (the default): its user is a player.

        Typing only: DRF's `Request.user` may be anonymous, which these views never see.
        """

        @property
        def user(self) -> User: ...
        @user.setter
        def user(self, value: User) -> None: ...


class SessionOnly(BasePermission):
    """Token management needs the session (the password): a leaked token that could mint
    a successor, or revoke the owner's other tokens, would outlive its own revocation.
    A token is refused before its scopes are weighed (`accounts.authentication`)."""

    refuses_tokens = True

    #: What a token is refused with.
    refusal: Callable[[], ServiceError] = SessionRequired

    def has_permission(self, request: Request, view: Any) -> bool:
        if isinstance(request.successful_authenticator, SessionAuthentication):
            return True
        raise self.refusal()


class CrossSiteRequest(ServiceError):
    code = "cross-site-request"
    status = 403
    message = _(
        "This request came from another site's page: sign in or play as a guest "
        "on this site itself."
    )

    def __init__(self) -> None:
        super().__init__(
            "This request came from another site's page: sign in or play as a guest "
            "on this site itself."
        )


class SameSiteOnly(BasePermission):
    """Signing in (login, registration, a new guest) from another site's page is refused.

    Such a page could otherwise sign a visitor into an account of its choosing (login
    CSRF) or replace a guest's session, the guest's only way back; DRF checks CSRF only
    for signed-in sessions. Browsers say where a request comes from (`Sec-Fetch-Site`,
    and `Origin` on every cross-origin POST); scripts send neither and pass.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        site = request.headers.get("Sec-Fetch-Site")
        if site in ("same-origin", "none"):
            return True
        header = request.headers.get("Origin")
        if header is None:
            if site is None:
                return True
            raise CrossSiteRequest()
        origin = parse_origin(header)
        if origin is not None and (
            origin == parse_origin(f"{request.scheme}://{request.get_host()}")
            or trusted_origin(origin)
        ):
            return True
        raise CrossSiteRequest()


class SecurityNeedsSession(ServiceError):
    code = "security-needs-session"
    status = 403
    message = _(
        "Two-factor sign-in and signed-in sessions are managed with a signed-in session "
        "(log in with your password): an API token cannot change them."
    )

    def __init__(self) -> None:
        super().__init__(
            "Two-factor sign-in and signed-in sessions are managed with a signed-in session "
            "(log in with your password): an API token cannot change them."
        )


class SecuritySessionOnly(SessionOnly):
    """Two-factor sign-in and the sessions list: a leaked token must not be able to turn the
    second factor off, read the devices, or sign the owner out."""

    refusal = SecurityNeedsSession
