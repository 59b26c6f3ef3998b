"""Accounts: register, play as a guest and upgrade, log in, log out, me, settings, tokens."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.models import User
from django.db.models import Model
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.fields import empty
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import addresses, guests, mail, two_factor, usernames
from accounts.me import me_dict
from accounts.models import ApiToken, PlayerSettings
from accounts.scopes import PUBLIC, SCOPES, SessionRequired
from api.docs import errors
from api.errors import OTHER_CODES
from api.permissions import CrossSiteRequest, SameSiteOnly, SessionOnly
from api.serializers.accounts import (
    LoginSerializer,
    MeSerializer,
    NewTokenSerializer,
    RegisterSerializer,
    SettingsSerializer,
    TokenCreateSerializer,
    TokenSerializer,
)
from api.serializers.common import validated
from api.throttles import GuestThrottle, LoginThrottle, RegisterThrottle

if TYPE_CHECKING:
    from typing import TypedDict

    from api.permissions import SignedInRequest

    class SchemaExtras(TypedDict):
        """`extend_schema` keywords shared by several endpoints."""

        # OpenAPI security requirements: drf-spectacular annotates `auth` as a list of
        # names, yet puts the list in the schema as it is.
        auth: Any
        description: str


#: The backend `login` records for a player who signed up here (no `authenticate` named one).
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


def site_of(request: Request) -> str:
    """The app's root URL as this request reached it (the host is one of ALLOWED_HOSTS)."""
    return request.build_absolute_uri("/")


def confirm_address(request: Request, user: User, address: str) -> None:
    """An address given at sign-up is stored unconfirmed and sent its confirmation link; the
    account stands if the mail server fails (logged): the account page sends it again."""
    if address:
        with contextlib.suppress(mail.MailUnavailable):
            addresses.request_change(user, address, site_of(request))


def signed_in(
    request: Request,
    user: User,
    *,
    status_code: int = status.HTTP_200_OK,
    session_seconds: int | None = None,
) -> Response:
    """Start `user`'s session and answer who they are; a guest's session lasts
    `session_seconds`, a registered player's (None) the usual length."""
    login(request._request, user, backend=PASSWORD_BACKEND)
    request.session.set_expiry(session_seconds)
    return Response(me_dict(user), status=status_code)


class RegisterView(APIView):
    required_scope = PUBLIC
    permission_classes = [AllowAny, SameSiteOnly]
    throttle_classes = [RegisterThrottle]

    @extend_schema(
        summary="Create an account and sign in (session)",
        description=(
            "A new name is 2 to 20 ASCII letters, digits, `_` and `-` (400 "
            "`username-not-allowed`). "
            "The name is stored NFKC-normalized (full-width letters become ASCII ones) and "
            "is one name in every letter case: a name another player has, in any case or "
            "width, is a 409 `username-taken`. Names starting with `guest-` are kept for "
            "guests (400)."
        ),
        request=RegisterSerializer,
        responses={
            201: MeSerializer,
            **errors(
                400,
                403,
                409,
                413,
                429,
                example_403=CrossSiteRequest(),
                codes={400: [usernames.UsernameNotAllowed], 409: [usernames.UsernameTaken]},
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated(RegisterSerializer, request.data)
        with usernames.claiming(data["username"]):
            user = User.objects.create_user(data["username"], data["email"], data["password"])
        confirm_address(request, user, data["email"])
        return signed_in(request, user, status_code=status.HTTP_201_CREATED)


class GuestView(APIView):
    """One click to play: a guest account signed in with a session (and a CSRF cookie)."""

    required_scope = PUBLIC

    permission_classes = [AllowAny, SameSiteOnly]
    throttle_classes = [GuestThrottle]

    @extend_schema(
        summary="Play as a guest: create a guest account and sign in (session)",
        description=(
            "Makes a real account with a generated name, no password and no e-mail, and "
            "signs it in with a session cookie. A caller already signed in gets its own "
            "account back (200) and no new guest. Guests never appear on leaderboards or "
            "daily rankings; `POST /api/v1/auth/upgrade` turns a guest into a registered "
            "player and keeps its games."
        ),
        request=None,
        responses={
            201: MeSerializer,
            200: MeSerializer,
            **errors(403, 429, example_403=CrossSiteRequest()),
        },
    )
    def post(self, request: Request) -> Response:
        if request.user.is_authenticated:
            return Response(me_dict(request.user))
        user = guests.create_guest()
        answer = signed_in(
            request,
            user,
            status_code=status.HTTP_201_CREATED,
            session_seconds=guests.SESSION_SECONDS,
        )
        # The CSRF cookie its session writes need. Not `ensure_csrf_cookie` on the view: its
        # check reads a form body before the API's parsers could refuse a hostile one.
        get_token(request._request)
        return answer


class UpgradeView(APIView):
    required_scope = "account:write"
    # Setting the password gives a session: a leaked token must not be able to.
    permission_classes = [IsAuthenticated, SessionOnly]
    throttle_classes = [RegisterThrottle]

    @extend_schema(
        summary="Sign up as the guest you are: keep its games, statistics and settings",
        description=(
            "The name follows the rules of registration: 2 to 20 ASCII letters, digits, "
            "`_` and `-` (400 `username-not-allowed`), stored NFKC-normalized, one name "
            "in every case (409 `username-taken`), no `guest-` prefix (400)."
        ),
        request=RegisterSerializer,
        responses={
            200: MeSerializer,
            **errors(
                400,
                401,
                403,
                409,
                429,
                example_403=SessionRequired(),
                codes={
                    400: [usernames.UsernameNotAllowed],
                    409: [guests.NotAGuest, usernames.UsernameTaken],
                },
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        guests.ensure_guest(request.user)
        data = validated(RegisterSerializer, request.data)
        user = guests.upgrade(
            request.user,
            username=data["username"],
            password=data["password"],
            email=data["email"],
        )
        confirm_address(request, user, data["email"])
        return signed_in(request, user)  # a registered player's session now: the usual length


class LoginView(APIView):
    required_scope = PUBLIC
    permission_classes = [AllowAny, SameSiteOnly]
    throttle_classes = [LoginThrottle]

    @extend_schema(
        summary="Sign in with a session cookie (browser)",
        description=(
            "With two-factor sign-in on, a right password without `code` is a 401 "
            "`second-factor-required`: send the same body again with the app's code (or a "
            "recovery code). Wrong codes are counted per player (403 `wrong-second-factor`); "
            "after five within 15 minutes every code is refused until the window ends "
            "(429 `second-factor-throttled`)."
        ),
        request=LoginSerializer,
        responses={
            200: MeSerializer,
            **errors(
                400,
                401,
                403,
                413,
                429,
                example_403=CrossSiteRequest(),
                codes={
                    401: [two_factor.SecondFactorRequired],
                    403: [two_factor.WrongSecondFactor, two_factor.SecondFactorReused],
                    429: [two_factor.SecondFactorThrottled],
                },
            ),
        },
    )
    def post(self, request: Request) -> Response:
        spec = LoginSerializer(data=request.data)
        spec.is_valid(raise_exception=True)
        # A name is one name in any case or width: sign in under its stored spelling.
        typed = spec.validated_data["username"]
        username = usernames.stored_name(typed) or typed
        user = authenticate(
            request._request, username=username, password=spec.validated_data["password"]
        )
        if user is None:
            message = str(OTHER_CODES["bad-credentials"])
            body = {"error": {"code": "bad-credentials", "message": message}}
            return Response(body, status=status.HTTP_401_UNAUTHORIZED)
        two_factor.sign_in_check(user, spec.validated_data.get("code"))
        login(request._request, user)
        return Response(me_dict(user))


class LogoutView(APIView):
    required_scope = "account:write"

    @extend_schema(summary="Sign out", request=None, responses={204: None, **errors(401, 403)})
    def post(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(ensure_csrf_cookie, name="dispatch")
class CsrfView(APIView):
    """Hands a browser its CSRF cookie before it signs in (session writes need the token)."""

    required_scope = PUBLIC

    permission_classes = [AllowAny]

    @extend_schema(summary="Get a CSRF cookie (browsers only)", responses={204: None})
    def get(self, request: Request) -> Response:
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(ensure_csrf_cookie, name="dispatch")
class MeView(APIView):
    required_scope = "account:read"

    @extend_schema(summary="Who am I", responses={200: MeSerializer, **errors(401)})
    def get(self, request: SignedInRequest) -> Response:
        return Response(me_dict(request.user))


class SettingsView(APIView):
    required_scope = {"GET": "account:read", "PATCH": "account:write"}

    @extend_schema(summary="My assist settings", responses={200: SettingsSerializer, **errors(401)})
    def get(self, request: SignedInRequest) -> Response:
        return Response(PlayerSettings.for_user(request.user).to_dict())

    @extend_schema(
        summary="Change some of my assist settings",
        request=SettingsSerializer,
        responses={200: SettingsSerializer, **errors(400, 401, 403, 413)},
    )
    def patch(self, request: SignedInRequest) -> Response:
        spec = SettingsSerializer(data=request.data)
        spec.is_valid(raise_exception=True)
        player_settings = PlayerSettings.for_user(request.user)
        for field, value in spec.validated_data.items():
            setattr(player_settings, field, value)
        player_settings.save()
        return Response(player_settings.to_dict())


# ---- a player's credentials: API tokens here, OAuth apps in api.views.oauth ----------------

#: Schema of the credential endpoints: the session (and its CSRF token) only.
TOKEN_MANAGEMENT: SchemaExtras = {
    "auth": [{"cookieAuth": []}],
    "description": (
        "Needs the signed-in session (`POST /auth/login`), with the CSRF token on writes; "
        "an API token gets 403 `session-required`, so a leaked token cannot mint a successor."
    ),
}


def credential_schema[F: Callable[..., Any]](
    summary: str, answer: dict[int, Any], *refusals: int, request: Any = empty
) -> Callable[[F], F]:
    """`extend_schema` of a credential endpoint: `answer`, the `refusals` and the session's
    own (401 signed out, 403 `session-required` for a token)."""
    statuses = sorted({401, 403, *refusals})
    return extend_schema(
        summary=summary,
        request=request,
        responses={**answer, **errors(*statuses, example_403=SessionRequired())},
        **TOKEN_MANAGEMENT,
    )


def delete_own(model: type[Model], request: SignedInRequest, pk: int) -> Response:
    """Delete the signed-in player's credential `pk` (404 for anyone else's, as for none)."""
    get_object_or_404(model, pk=pk, user=request.user).delete()
    return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListView(APIView):
    required_scope = "account:write"
    permission_classes = [IsAuthenticated, SessionOnly]

    @credential_schema("My API tokens", {200: TokenSerializer(many=True)})
    def get(self, request: SignedInRequest) -> Response:
        tokens = ApiToken.objects.filter(user=request.user)
        return Response([token.to_dict() for token in tokens])

    @credential_schema(
        "Create an API token (the secret is shown once)",
        {201: NewTokenSerializer},
        400,
        413,
        request=TokenCreateSerializer,
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(TokenCreateSerializer, request.data)
        token, raw = ApiToken.issue(request.user, data["name"], data.get("scopes", SCOPES))
        return Response({**token.to_dict(), "token": raw}, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    required_scope = "account:write"
    permission_classes = [IsAuthenticated, SessionOnly]

    @credential_schema(
        "Revoke an API token (its open websockets close with 4401)", {204: None}, 404
    )
    def delete(self, request: SignedInRequest, token_id: int) -> Response:
        return delete_own(ApiToken, request, token_id)
