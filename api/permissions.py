"""What only a signed-in browser session may do, never an API token."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from games.errors import ServiceError


class SessionRequired(ServiceError):
    """Other languages: `api.refusals.SERVICE_MESSAGES`."""

    code = "session-required"
    status = 403

    def __init__(self) -> None:
        super().__init__(
            "Managing API tokens needs a signed-in session (log in with your password): "
            "an API token cannot list, create or revoke tokens."
        )


class SessionOnly(BasePermission):
    """Token management needs the session (the password): a leaked token that could mint
    a successor, or revoke the owner's other tokens, would outlive its own revocation."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if isinstance(request.successful_authenticator, SessionAuthentication):
            return True
        raise SessionRequired()
