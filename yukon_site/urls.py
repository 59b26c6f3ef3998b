"""Top-level routes: probes, the API, the admin, and the single-page app."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from ops.health import healthz, pool, readyz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/pool", pool, name="healthz-pool"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("frontend.language_urls")),
    path("", include("frontend.urls")),
]

if settings.BENCH_ENDPOINTS:
    from api.views.bench import BareMoveView

    urlpatterns.insert(0, path("bench/bare-move", BareMoveView.as_view(), name="bench-bare-move"))

handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
