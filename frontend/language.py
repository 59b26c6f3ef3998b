"""Language views: the JavaScript message catalogue and the rules page, per language.

The catalogue's URL names its language (``/jsi18n/hu/``), so a cached copy never
serves another language; the shell asks for the active one. The rules page is
one hand-written template per language (``frontend/rules/<lang>.html``), with
an anchor per rule family (``#build``, ``#empty-column``...) that refused moves
link to.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import translation
from django.utils.formats import number_format
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from frontend.views import shell_context
from games.engine import DEAL_COUNT, GROUP_LIMIT, UNDO_LIMIT

SUPPORTED = frozenset(code for code, _ in settings.LANGUAGES)


class ProjectCatalog(JavaScriptCatalog):
    """Django's JavaScript catalogue, read from the project's ``locale/`` folders."""

    domain = "djangojs"
    packages = ["frontend"]

    def get_paths(self, packages: list[str]) -> list[str]:
        return [str(path) for path in settings.LOCALE_PATHS]


@require_GET
def js_catalog(request: HttpRequest, lang: str) -> HttpResponseBase:
    """The app's JavaScript strings in ``lang`` (defines ``django.gettext`` and friends)."""
    if lang not in SUPPORTED:
        raise Http404(lang)
    with translation.override(lang):
        return ProjectCatalog.as_view()(request)


def _rules_context() -> dict[str, object]:
    """The rules' template and the engine's own limits, numbers written the language's way."""
    code = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return {
        "content": f"frontend/rules/{code if code in SUPPORTED else settings.LANGUAGE_CODE}.html",
        "group_limit": GROUP_LIMIT,
        "undo_limit": UNDO_LIMIT,
        "deal_count": number_format(DEAL_COUNT, force_grouping=True),
    }


@require_GET
@ensure_csrf_cookie
def rules_page(request: HttpRequest) -> HttpResponse:
    """The rules in the active language, inside the app's shell (a full page load)."""
    return render(request, "frontend/shell.html", {**shell_context(request), **_rules_context()})


@require_GET
def rules_fragment(request: HttpRequest) -> HttpResponse:
    """Only the rules article, for the app's in-page navigation to /rules."""
    context = _rules_context()
    return render(request, str(context["content"]), context)
