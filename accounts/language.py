"""The player's language: a stored choice beats the cookie and the browser's Accept-Language.

Django's ``LocaleMiddleware`` picks the language from the ``django_language``
cookie (set by the app's language menu) or Accept-Language; this layer then
applies the signed-in player's stored choice (``PlayerSettings.language``).
Pages look it up on every request; the API only when it answers an error, so
the move path pays no extra query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.models import PlayerSettings

SUPPORTED = frozenset(code for code, _ in settings.LANGUAGES)


def player_language(user: object) -> str | None:
    """The signed-in player's stored language, or None (not signed in, or "follow the browser")."""
    if not getattr(user, "is_authenticated", False):
        return None
    language = (
        PlayerSettings.objects.filter(user_id=cast(int, getattr(user, "pk", None)))  # signed in
        .values_list("language", flat=True)
        .first()
    )
    return language if language in SUPPORTED else None


class PlayerLanguageMiddleware:
    """After authentication: switch pages to the signed-in player's stored language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            language = player_language(request.user)
            if language and language != translation.get_language():
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
