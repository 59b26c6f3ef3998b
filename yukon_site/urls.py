"""Top-level routes: probes, the API, the admin, and the single-page app."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.cache import never_cache
from oauth2_provider import views as oauth

from accounts.oauth import refuse_nul_bytes
from api.realtime.health import sockets
from ops.health import healthz, pool, readyz

#: The OAuth2 endpoints third-party apps use (the toolkit's views; apps are registered
#: through the API, /api/v1/oauth/apps).
oauth_urlpatterns = (
    [
        # The consent page holds the request's state and PKCE challenge: never cached.
        path(
            "authorize/",
            refuse_nul_bytes(never_cache(oauth.AuthorizationView.as_view())),
            name="authorize",
        ),
        path("token/", refuse_nul_bytes(oauth.TokenView.as_view()), name="token"),
        path(
            "revoke_token/",
            refuse_nul_bytes(oauth.RevokeTokenView.as_view()),
            name="revoke-token",
        ),
    ],
    "oauth2_provider",
)


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin signs in on the app's log-in page, which asks for the second factor too (the
    admin's own form would take the password alone)."""
    return redirect_to_login(request.GET.get("next", "/admin/"))


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/pool", pool, name="healthz-pool"),
    path("healthz/sockets", sockets, name="healthz-sockets"),
    path("readyz", readyz, name="readyz"),
    path("admin/login/", admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("oauth/", include(oauth_urlpatterns)),
    path("", include("frontend.language_urls")),
    path("", include("frontend.urls")),
]

if settings.BENCH_ENDPOINTS:
    from benchmarks.bare_move import BareMoveView

    urlpatterns.insert(0, path("bench/bare-move", BareMoveView.as_view(), name="bench-bare-move"))

handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
