"""Your account: change the e-mail address or the password, reset a forgotten password,
download your data, leave (docs/api.md, "Your account")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import logout
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import addresses, guests, links, mail, passwords, sessions, two_factor
from accounts.scopes import PUBLIC, SessionRequired
from api.docs import errors
from api.permissions import CrossSiteRequest, SameSiteOnly, SessionOnly
from api.serializers.common import validated
from api.serializers.your_account import (
    CloseSerializer,
    EmailChangeSerializer,
    EmailConfirmedSerializer,
    ExportSerializer,
    LinkTokenSerializer,
    PasswordChangeSerializer,
    ResetRequestSerializer,
    ResetSerializer,
    SentSerializer,
    check_new_password,
    export_dict,
)
from api.throttles import LoginThrottle
from api.views.accounts import site_of
from games import account_closing, exports
from games.races.errors import RaceCountingDown
from ops.errors import ServiceError

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

LINK_REFUSALS: dict[int, list[type[ServiceError]]] = {
    400: [links.LinkInvalid],
    409: [links.LinkUsed],
    410: [links.LinkExpired],
}


class EmailView(APIView):
    required_scope = "account:write"
    # An address receives password resets: a leaked token must not be able to change it.
    permission_classes = [IsAuthenticated, SessionOnly]

    @extend_schema(
        summary="Add or change my e-mail address (a confirmation link is sent to it)",
        description=(
            "The new address gets a link (`/account/email?token=...`, valid "
            "`ACCOUNT_LINK_SECONDS`); the stored address changes when it is followed "
            "(`POST /auth/email/confirm`). The old address, if any, is told at once. Asking "
            "again for the stored but unconfirmed address sends it a new link."
        ),
        request=EmailChangeSerializer,
        responses={
            202: SentSerializer,
            **errors(
                400,
                401,
                403,
                413,
                503,
                example_403=SessionRequired(),
                codes={503: [mail.MailUnavailable]},
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(EmailChangeSerializer, request.data)
        addresses.request_change(request.user, data["email"], site_of(request))
        detail = _("A confirmation link was sent to %(address)s.") % {"address": data["email"]}
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class EmailConfirmView(APIView):
    """Public: the link may be opened in a browser that is not signed in."""

    required_scope = PUBLIC
    permission_classes = [AllowAny, SameSiteOnly]

    @extend_schema(
        summary="Confirm an e-mail address with the token of its link",
        request=LinkTokenSerializer,
        responses={
            200: EmailConfirmedSerializer,
            **errors(400, 403, 409, 410, 413, example_403=CrossSiteRequest(), codes=LINK_REFUSALS),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated(LinkTokenSerializer, request.data)
        user = addresses.confirm(data["token"])
        return Response({"email": user.email})


class PasswordView(APIView):
    required_scope = "account:write"
    permission_classes = [IsAuthenticated, SessionOnly]

    @extend_schema(
        summary="Change my password (signs out my other sessions)",
        description=(
            "Needs the current password; the new one passes Django's validators (length, "
            "common passwords, not all digits, not like the name). This session stays "
            "signed in; every other session of the account is signed out."
        ),
        request=PasswordChangeSerializer,
        responses={
            204: None,
            **errors(
                400,
                401,
                403,
                413,
                example_403=SessionRequired(),
                codes={400: [passwords.WrongPassword]},
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        spec = PasswordChangeSerializer(data=request.data, context={"user": request.user})
        spec.is_valid(raise_exception=True)
        data = spec.validated_data
        passwords.change(request.user, data["current_password"], data["new_password"])
        sessions.password_changed(request._request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ResetRequestView(APIView):
    required_scope = PUBLIC
    permission_classes = [AllowAny, SameSiteOnly]
    throttle_classes = [LoginThrottle]

    @extend_schema(
        summary="Forgot my password: e-mail a reset link",
        description=(
            "Answers 202 with the same words whether or not an account has this address "
            "(in any letter case): only a confirmed address of an active account gets the "
            "link (`/account/reset?token=...`). Within an hour an address may ask "
            "`PASSWORD_RESET_MAILS_PER_HOUR` times (then 429 `reset-throttled`, whoever owns "
            "it), and an account receives as many e-mails at most."
        ),
        request=ResetRequestSerializer,
        responses={
            202: SentSerializer,
            **errors(
                400,
                403,
                413,
                429,
                example_403=CrossSiteRequest(),
                codes={429: [passwords.ResetThrottled]},
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated(ResetRequestSerializer, request.data)
        passwords.request_reset(data["email"], site_of(request))
        detail = _(
            "If an account has this confirmed address, a link to choose a new password is on "
            "its way."
        )
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class ResetView(APIView):
    required_scope = PUBLIC
    permission_classes = [AllowAny, SameSiteOnly]
    throttle_classes = [LoginThrottle]

    @extend_schema(
        summary="Choose a new password with a reset link's token (signs out every session)",
        description=(
            "The token works once (a used one is a 409 `link-used`) until it expires (410). "
            "Every session of the account ends, this browser's too: sign in with the new "
            "password."
        ),
        request=ResetSerializer,
        responses={
            204: None,
            **errors(
                400,
                403,
                409,
                410,
                413,
                429,
                example_403=CrossSiteRequest(),
                codes=LINK_REFUSALS,
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated(ResetSerializer, request.data)
        check_new_password(data["new_password"], passwords.reset_user(data["token"]))
        passwords.reset(data["token"], data["new_password"])
        if request.user.is_authenticated:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExportView(APIView):
    required_scope = {"GET": "account:read", "POST": "account:write"}

    @extend_schema(
        summary="My latest data export, with its progress (204: none asked for yet)",
        responses={200: ExportSerializer, 204: None, **errors(401, 403)},
    )
    def get(self, request: SignedInRequest) -> Response:
        export = exports.latest(request.user)
        if export is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(export_dict(export))

    @extend_schema(
        summary="Download my data: start building the archive",
        description=(
            "A task builds one zip: `account.json`, `settings.json`, `ratings.json`, "
            "`puzzles.json` and `games.csv` (every game: code, rule, result, times, move "
            "log). `GET` follows its progress (`games_done` of `games_total`); once `ready`, "
            "`download` is where its owner fetches it until `expires_at` "
            "(`EXPORT_KEEP_SECONDS`). While one is being built, asking again is a 409 "
            "`export-in-progress` naming it (`export`): two asks at once make one archive."
        ),
        request=None,
        responses={
            202: ExportSerializer,
            **errors(401, 403, 409, codes={409: [exports.ExportInProgress]}),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        export = exports.ask(request.user)
        return Response(export_dict(export), status=status.HTTP_202_ACCEPTED)


class ExportDownloadView(APIView):
    required_scope = "account:read"

    @extend_schema(
        summary="Download my data archive (a zip; its owner only)",
        responses={
            (200, "application/zip"): OpenApiResponse(bytes, description="The zip archive."),
            **errors(
                401,
                403,
                404,
                409,
                410,
                codes={
                    404: [exports.ExportNotFound],
                    409: [exports.ExportNotReady],
                    410: [links.LinkExpired],
                },
            ),
        },
    )
    def get(self, request: SignedInRequest, export_id: int) -> HttpResponse:
        name, archive = exports.download(request.user, export_id)
        answer = HttpResponse(archive, content_type="application/zip")
        answer["Content-Disposition"] = f'attachment; filename="{name}"'
        answer["Cache-Control"] = "private, no-store"
        return answer


class CloseView(APIView):
    required_scope = "account:write"
    permission_classes = [IsAuthenticated, SessionOnly]

    @extend_schema(
        summary="Delete my account",
        description=(
            "Needs the password (a guest has none), and the second factor's `code` when "
            "two-factor sign-in is on. A game in play (a race, a ranked daily attempt, any "
            "other) ends first as a resignation; then every session ends, tokens and OAuth "
            "grants are revoked, and the account leaves every board and rating. Finished "
            "races others see keep their results under `deleted-player-...`. A race "
            "counting down refuses (409 `race-counting-down`): leave once it runs."
        ),
        request=CloseSerializer,
        responses={
            204: None,
            **errors(
                400,
                401,
                403,
                409,
                413,
                429,
                example_403=SessionRequired(),
                codes={
                    400: [passwords.WrongPassword],
                    401: [two_factor.SecondFactorRequired],
                    403: [two_factor.WrongSecondFactor, two_factor.SecondFactorReused],
                    409: [RaceCountingDown],
                    429: [two_factor.SecondFactorThrottled],
                },
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(CloseSerializer, request.data)
        user = request.user
        if not guests.is_guest(user):
            passwords.check_password(user, data["password"])
            two_factor.sign_in_check(user, data["code"] or None)
        account_closing.close(user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
