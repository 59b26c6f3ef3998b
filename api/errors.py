"""One JSON error shape for every failure: `{"error": {"code", "message", ...}}`.

Engine refusals keep their machine code and rule family (422), text that does
not parse is a 400, service refusals carry their own status, and a stale
version (409) includes the current state so the client can catch up.
Messages are in the request's language (a signed-in player's stored choice,
else the cookie or Accept-Language); codes stay English (``api.refusals``).
"""

from __future__ import annotations

import logging
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import get_resolver
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.language import player_language
from api.parsers import JsonTooDeep, LoneSurrogate
from api.refusals import engine_message, service_message
from games.engine import CODES, IllegalMoveError, YukonError
from games.errors import ServiceError
from games.races.errors import RaceNotFound
from ops.errors import StrOrPromise
from ops.middleware import DATABASE_UNAVAILABLE

logger = logging.getLogger(__name__)

DRF_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.NotAuthenticated: "not-authenticated",
    exceptions.AuthenticationFailed: "authentication-failed",
    exceptions.PermissionDenied: "permission-denied",
    exceptions.NotFound: "not-found",
    exceptions.MethodNotAllowed: "method-not-allowed",
    exceptions.NotAcceptable: "not-acceptable",
    exceptions.UnsupportedMediaType: "unsupported-media-type",
    exceptions.Throttled: "throttled",
    JsonTooDeep: "json-too-deep",
    LoneSurrogate: "invalid-unicode",
    exceptions.ParseError: "malformed-json",
    exceptions.ValidationError: "invalid-request",
}


#: Codes answered outside the refusal classes and DRF's exceptions, with their sentences:
#: the handler's own, the login view's, the JSON 404/500 pages' and the database outage's
#: (ops.middleware, the websocket writes).
OTHER_CODES: dict[str, StrOrPromise] = {
    "bad-request": _("The request could not be understood."),
    "body-too-large": _("The request body is larger than %(limit)s bytes."),
    "not-found": _("Nothing at %(path)s."),
    "server-error": _("Something went wrong on our side."),
    "bad-credentials": _("Wrong username or password."),
    "database-unavailable": DATABASE_UNAVAILABLE,
}
VALIDATION_FAILED = _("The request has invalid fields; see 'fields'.")
#: Engine codes no request can cause: a stored state that fails to load is a server fault.
INTERNAL_ENGINE_CODES = frozenset({"invalid-state"})


def _service_classes(kind: type[ServiceError]) -> list[type[ServiceError]]:
    found = [kind]
    for subclass in kind.__subclasses__():
        found += _service_classes(subclass)
    return found


def error_codes() -> frozenset[str]:
    """Every `code` a REST answer can carry (the schema's enum; docs/api.md's table).

    Service refusals are found by their classes: loading the URLconf imports every
    view, and so every refusal a view can raise.
    """
    get_resolver().url_patterns  # noqa: B018 (imports the views)
    engine = set(CODES) - INTERNAL_ENGINE_CODES
    service = {kind.code for kind in _service_classes(ServiceError)} - {ServiceError.code}
    return frozenset({*DRF_CODES.values(), *OTHER_CODES, *engine, *service})


def sentences() -> dict[str, StrOrPromise]:
    """The translatable sentence of every code of `error_codes` (tests/api/test_languages.py
    holds each to a translation in every language the service speaks)."""
    get_resolver().url_patterns  # noqa: B018 (imports the views, and so every refusal)
    kinds = {kind.code: kind for kind in _service_classes(ServiceError)}
    drf = {code: cast(StrOrPromise, kind.default_detail) for kind, code in DRF_CODES.items()}
    found: dict[str, StrOrPromise] = {**drf, "invalid-request": VALIDATION_FAILED, **OTHER_CODES}
    for code in error_codes():
        if code in kinds:
            found[code] = kinds[code].message
        elif code in CODES:
            found[code] = CODES[code].description
    return found


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def _drf_message(exc: exceptions.APIException) -> str:
    if isinstance(exc, exceptions.ValidationError):
        return str(VALIDATION_FAILED)
    return str(exc.detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # The user authentication already found (DRF copies it to the Django request): asking the
    # DRF request would authenticate again, and re-raise an error that failed authentication
    # (a session's CSRF check reads the body, which can be too large).
    request = getattr(context.get("request"), "_request", None)
    language = player_language(getattr(request, "user", None)) or translation.get_language()
    with translation.override(language):
        return _error_response(exc, context)


def refusal(exc: Exception, *, body_limit: int | None = None) -> tuple[int, dict[str, Any]] | None:
    """The status and error body both doors (REST, the game's websocket) answer `exc` with;
    None for an exception that is no refusal (a bug: the caller lets it surface as a 500).

    `body_limit` names the size limit a `RequestDataTooBig` broke (default: Django's).
    """
    if isinstance(exc, YukonError):
        status = 422 if isinstance(exc, IllegalMoveError) else 400
        return status, {"error": {**exc.to_dict(), "message": engine_message(exc)}}
    if isinstance(exc, ServiceError):
        return exc.status, error_body(exc.code, service_message(exc), **exc.details())
    if isinstance(exc, RequestDataTooBig):
        limit = body_limit if body_limit is not None else settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = str(OTHER_CODES["body-too-large"]) % {"limit": limit}
        return 413, error_body("body-too-large", message)
    if isinstance(exc, exceptions.APIException):
        code = next((c for kind, c in DRF_CODES.items() if isinstance(exc, kind)), "bad-request")
        extra: dict[str, Any] = {}
        if isinstance(exc, exceptions.ValidationError):
            extra["fields"] = exc.detail
        # The stubs leave out Throttled.wait (set by its __init__).
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:  # type: ignore[attr-defined]
            extra["retry_after_seconds"] = int(exc.wait + 0.999)  # type: ignore[attr-defined]
        return exc.status_code, error_body(code, _drf_message(exc), **extra)
    return None


def _error_response(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if not isinstance(exc, exceptions.APIException):
        refused = refusal(exc)
        return None if refused is None else Response(refused[1], status=refused[0])
    # DRF's handler adds the headers (WWW-Authenticate, Retry-After); the body is ours.
    response = drf_exception_handler(exc, context)
    refused = refusal(exc)
    if response is not None and refused is not None:
        response.data = refused[1]
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Unknown URLs answer in the API's shape under /api/, and plainly elsewhere."""
    message = str(OTHER_CODES["not-found"]) % {"path": request.path}
    return JsonResponse(error_body("not-found", message), status=404)


def no_such_race(request: HttpRequest, **kwargs: object) -> JsonResponse:
    """A race path whose room code has a form no room has (another alphabet, a NUL byte):
    answered as a room nobody opened, without asking the database."""
    message = str(RaceNotFound.message)
    return JsonResponse(error_body("race-not-found", message), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    logger.error("unhandled server error at %s", request.path)
    message = str(OTHER_CODES["server-error"])
    return JsonResponse(error_body("server-error", message), status=500)
