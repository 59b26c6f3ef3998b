"""The single-page app's shell: one HTML page for every client-side route."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from accounts.me import me_dict
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
    "menus.js",
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
    """What every rendering of the shell needs: the modules to preload, who is signed in, and
    the player's look.

    Who is signed in is what ``GET /api/v1/auth/me`` would answer, or null: the app reads it
    from the page, so it makes no request at start, and none that fails (a 401 in the
    console) for a visitor nobody signed in. The card back and table colour are written into
    ``<html>``, so the first paint already wears them.
    """
    me = me_dict(request.user) if request.user.is_authenticated else None
    look = me["settings"] if me else PlayerSettings().to_dict()  # unsaved defaults
    return {
        "modules": [f"frontend/js/{name}" for name in CORE_MODULES],
        "me": me,
        "card_back": look["card_back"],
        "table_colour": look["table_colour"],
    }
