"""Your account's security: two-factor sign-in (TOTP) and the signed-in sessions.

Session only, like the API tokens: a token gets 403 `security-needs-session`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth import logout
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.fields import empty
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import sessions, two_factor
from api.docs import errors
from api.permissions import SecurityNeedsSession, SecuritySessionOnly
from api.serializers.common import validated
from api.serializers.security import (
    RecoveryCodesSerializer,
    SecondFactorCodeSerializer,
    SignedInSessionSerializer,
    SignedOutSerializer,
    TwoFactorSetupSerializer,
    TwoFactorStatusSerializer,
)
from ops.errors import ServiceError

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

#: The refusals of an operation that checks a code.
CODE_REFUSALS: dict[int, list[type[ServiceError]]] = {
    403: [two_factor.WrongSecondFactor, two_factor.SecondFactorReused],
    409: [two_factor.TwoFactorOff],
    429: [two_factor.SecondFactorThrottled],
}


#: The operations' security requirement: the session cookie (drf-spectacular annotates `auth`
#: as a list of names, yet puts the list in the schema as it is).
SESSION_AUTH: Any = [{"cookieAuth": []}]


def security_schema[F: Callable[..., Any]](
    summary: str,
    answer: dict[int, Any],
    *refusals: int,
    request: Any = empty,
    codes: dict[int, list[type[ServiceError]]] | None = None,
) -> Callable[[F], F]:
    """`extend_schema` of a security endpoint: `answer`, the `refusals`, and the session's
    own (401 signed out, 403 `security-needs-session` for a token)."""
    statuses = sorted({401, 403, *refusals})
    return extend_schema(
        summary=summary,
        request=request,
        responses={
            **answer,
            **errors(*statuses, example_403=SecurityNeedsSession(), codes=codes),
        },
        auth=SESSION_AUTH,
        description=(
            "Needs the signed-in session (`POST /auth/login`), with the CSRF token on writes; "
            "an API token gets 403 `security-needs-session`."
        ),
    )


#: Every view here: a signed-in session. Their `account:write` is never reached by a token,
#: which SecuritySessionOnly refuses first.
SESSION_ONLY = [IsAuthenticated, SecuritySessionOnly]


class TwoFactorView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema("Is two-factor sign-in on?", {200: TwoFactorStatusSerializer})
    def get(self, request: SignedInRequest) -> Response:
        return Response(two_factor.status(request.user))


class TwoFactorSetupView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema(
        "Start turning two-factor sign-in on: a new secret and its QR code",
        {201: TwoFactorSetupSerializer},
        409,
        request=None,
        codes={409: [two_factor.TwoFactorAlreadyOn]},
    )
    def post(self, request: SignedInRequest) -> Response:
        setup = two_factor.begin_setup(request.user)
        body = {"secret": setup.secret, "otpauth_uri": setup.otpauth_uri, "qr_svg": setup.qr_svg}
        return Response(body, status=status.HTTP_201_CREATED)


class TwoFactorConfirmView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema(
        "Turn two-factor sign-in on with a first code from the app (the recovery codes, once)",
        {200: RecoveryCodesSerializer},
        400,
        409,
        429,
        request=SecondFactorCodeSerializer,
        codes={
            **CODE_REFUSALS,
            409: [two_factor.TwoFactorNotStarted, two_factor.TwoFactorAlreadyOn],
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        code = validated(SecondFactorCodeSerializer, request.data)["code"]
        recovery_codes = two_factor.confirm_setup(request.user, code)
        return Response({**two_factor.status(request.user), "recovery_codes": recovery_codes})


class TwoFactorDisableView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema(
        "Turn two-factor sign-in off (needs a current code)",
        {200: TwoFactorStatusSerializer},
        400,
        409,
        429,
        request=SecondFactorCodeSerializer,
        codes=CODE_REFUSALS,
    )
    def post(self, request: SignedInRequest) -> Response:
        code = validated(SecondFactorCodeSerializer, request.data)["code"]
        two_factor.disable(request.user, code)
        return Response(two_factor.status(request.user))


class RecoveryCodesView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema(
        "Ten new recovery codes for a current code (the old ones stop working)",
        {200: RecoveryCodesSerializer},
        400,
        409,
        429,
        request=SecondFactorCodeSerializer,
        codes=CODE_REFUSALS,
    )
    def post(self, request: SignedInRequest) -> Response:
        code = validated(SecondFactorCodeSerializer, request.data)["code"]
        recovery_codes = two_factor.replace_recovery_codes(request.user, code)
        return Response({**two_factor.status(request.user), "recovery_codes": recovery_codes})


class SessionListView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema("My signed-in sessions", {200: SignedInSessionSerializer(many=True)})
    def get(self, request: SignedInRequest) -> Response:
        return Response(sessions.signed_in(request.user, request.session.session_key))


class SessionDetailView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema(
        "Sign out one of my sessions (this one too: then it is signing out)",
        {204: None},
        404,
        codes={404: [sessions.SessionNotFound]},
    )
    def delete(self, request: SignedInRequest, session_id: int) -> Response:
        ended = sessions.sign_out(request.user, session_id)
        if ended == request.session.session_key:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignOutOthersView(APIView):
    required_scope = "account:write"
    permission_classes = SESSION_ONLY

    @security_schema(
        "Sign out everywhere else: every session but this one",
        {200: SignedOutSerializer},
        request=None,
    )
    def post(self, request: SignedInRequest) -> Response:
        ended = sessions.sign_out_others(request.user, request.session.session_key)
        return Response({"signed_out": ended})
