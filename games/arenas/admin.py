"""The arena schedule in the Django admin: a saved schedule replaces the `ARENA_SCHEDULE`
setting (games.arenas.schedule); the form refuses one that cannot be read. Arenas are
listed to look at, never edited (their deals are chosen once, when made)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games.arenas import schedule
from games.arenas.models import Arena, ScheduleOverride


class ScheduleForm(forms.ModelForm[ScheduleOverride]):
    class Meta:
        model = ScheduleOverride
        fields = ["entries"]

    def clean_entries(self) -> Any:
        entries = self.cleaned_data["entries"]
        schedule.parse(entries)  # a ValidationError names what is wrong
        return entries


@admin.register(ScheduleOverride)
class ScheduleOverrideAdmin(admin.ModelAdmin[ScheduleOverride]):
    form = ScheduleForm
    list_display = ["__str__", "updated_at"]


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin[Arena]):
    list_display = ["name", "rule", "starts_at", "ends_at", "kind", "private", "finished_at"]
    list_filter = ["kind", "rule", "private"]
    exclude = ["deals", "token"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
