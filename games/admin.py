"""The fair-play list in the Django admin: the changelist of play sources shows the signals
of games.fair_play_signals instead of the raw (hashed) rows."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.template.response import TemplateResponse

from accounts.models import PlaySource
from games import fair_play_signals


@admin.register(PlaySource)
class FairPlayListAdmin(admin.ModelAdmin[PlaySource]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> TemplateResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Fair-play list",
            "opts": self.model._meta,
            "days": settings.FAIR_PLAY_DAYS,
            "many_plays": fair_play_signals.MANY_PLAYS,
            "shared": fair_play_signals.shared_play(),
            "repeats": fair_play_signals.repeated_deals(),
        }
        return TemplateResponse(request, "admin/fair_play_list.html", context)
