"""Request plumbing: a request id, one access-log line per request, and 503 on a database outage.

`RequestIdMiddleware` gives every request an id (the caller's X-Request-ID or a
fresh one) that every log line of the request carries, and logs the request
once it is answered. `DatabaseUnavailableMiddleware` turns a lost or refused
PostgreSQL connection anywhere in a view into the API's error shape with 503,
so clients retry instead of seeing a 500; the broken pooled connection is
discarded by Django at the end of the request, so workers recover by
themselves when PostgreSQL is back.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from collections.abc import Callable

import psycopg
import psycopg_pool
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _

from ops.client_address import client_address
from ops.logging import current_request_id

ACCEPTABLE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
RETRY_AFTER_SECONDS = 5
# SQLSTATEs that mean "no usable server": connection exceptions and server shutdown.
UNAVAILABLE_SQLSTATES = ("08", "57P01", "57P02", "57P03")
UNAVAILABLE_MARK = "yukon.database_unavailable"

access_log = logging.getLogger("ops.access")
logger = logging.getLogger(__name__)


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        supplied = request.headers.get("X-Request-ID", "")
        request_id = supplied if ACCEPTABLE_ID.match(supplied) else uuid.uuid4().hex
        token = current_request_id.set(request_id)
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            access_log.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "client": client_address(request),
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                },
            )
        finally:
            current_request_id.reset(token)
        return response


def database_unavailable(exc: BaseException) -> bool:
    """Whether `exc` means PostgreSQL cannot be reached (not a query or a lock problem)."""
    if isinstance(exc, psycopg_pool.PoolTimeout | InterfaceError | psycopg.InterfaceError):
        return True
    if isinstance(exc, OperationalError):
        exc = exc.__cause__ or exc
    if isinstance(exc, psycopg_pool.PoolTimeout):
        return True
    if not isinstance(exc, psycopg.OperationalError):
        return False
    sqlstate = exc.sqlstate
    return sqlstate is None or sqlstate.startswith(UNAVAILABLE_SQLSTATES)


#: The outage's sentence (the websocket writes answer it too).
DATABASE_UNAVAILABLE = _("The database is unreachable right now; retry in a few seconds.")


def unavailable_response() -> JsonResponse:
    response = JsonResponse(
        {
            "error": {
                "code": "database-unavailable",
                "message": str(DATABASE_UNAVAILABLE),
            }
        },
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _note_unavailable(sender: object, request: HttpRequest | None = None, **kwargs: object) -> None:
    """Mark a request whose 500 came from an unreachable database (sent while it is handled)."""
    exc = sys.exc_info()[1]
    if request is not None and exc is not None and database_unavailable(exc):
        request.META[UNAVAILABLE_MARK] = True


got_request_exception.connect(_note_unavailable)


class DatabaseUnavailableMiddleware:
    """Answer 503 `database-unavailable` instead of a 500 when PostgreSQL is down (or the pool dry).

    `process_exception` sees only the view's exceptions; one raised by a later
    middleware (the page language reads the player's settings) is already a
    500 when it comes back here, marked by `_note_unavailable`.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 500 and request.META.get(UNAVAILABLE_MARK):
            return unavailable_response()
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_unavailable(exception):
            return None
        logger.warning("database unavailable: %s", exception)
        return unavailable_response()
