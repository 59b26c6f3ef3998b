"""The single-page app's shell: one HTML page for every client-side route."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from accounts.models import PlayerSettings

#: The ES modules every page needs, preloaded so the browser fetches them in parallel.
CORE_MODULES = (
    "main.js",
    "i18n.js",
    "api.js",
    "dom.js",
    "router.js",
    "session.js",
    "cards.js",
    "layout.js",
    "geometry.js",
    "state.js",
    "pushes.js",
    "versions.js",
    "socket.js",
    "render.js",
    "drag.js",
    "keyboard.js",
    "board.js",
    "variants.js",
    "pages/table.js",
)


@require_GET
@ensure_csrf_cookie
def shell(request: HttpRequest, **route: object) -> HttpResponse:
    """Serve the app shell; the client-side router reads the path and draws the page."""
    return render(request, "frontend/shell.html", shell_context(request))


def shell_context(request: HttpRequest) -> dict[str, object]:
    """What every rendering of the shell needs: the modules to preload, and the player's look.

    The card back and table colour are written into ``<html>`` by the server, so the first
    paint already wears them (no flash of the default before the app has asked who is in).
    """
    look = PlayerSettings()  # the defaults, unsaved: a page view writes nothing
    if request.user.is_authenticated:
        look = PlayerSettings.objects.filter(user=request.user).first() or look
    return {
        "modules": [f"frontend/js/{name}" for name in CORE_MODULES],
        "card_back": look.card_back,
        "table_colour": look.table_colour,
    }
