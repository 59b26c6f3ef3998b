"""Moderation in the Django admin: the audit log, where adding a line marks or unmarks an
account (accounts.moderation), and the accounts marked now."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts import moderation
from accounts.models import Mark, ModerationEntry


class ModerationForm(forms.ModelForm[ModerationEntry]):
    class Meta:
        model = ModerationEntry
        fields = ["user", "action", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        user, action = data.get("user"), data.get("action")
        if user is not None and action:
            marked = moderation.is_marked(user)
            if (action == ModerationEntry.Action.MARK) == marked:
                state = "already" if marked else "not"
                raise ValidationError(f"{user.get_username()} is {state} marked.")
        return data


@admin.register(ModerationEntry)
class ModerationEntryAdmin(admin.ModelAdmin[ModerationEntry]):
    """The log is written only by marking and unmarking: lines are never changed or deleted."""

    form = ModerationForm
    autocomplete_fields = ["user"]
    list_display = ["at", "username", "action", "actor_name", "reason"]
    list_filter = ["action"]
    search_fields = ["username", "actor_name", "reason"]
    date_hierarchy = "at"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: ModerationEntry, form: Any, change: bool
    ) -> None:
        act = moderation.mark if obj.action == ModerationEntry.Action.MARK else moderation.unmark
        entry = act(obj.user, by=request.user, reason=obj.reason)  # type: ignore[arg-type]
        vars(obj).update(vars(entry))  # the line the service wrote, for the admin's message


@admin.register(Mark)
class MarkAdmin(admin.ModelAdmin[Mark]):
    """Who is marked now; a mark is added or taken back through the moderation log."""

    list_display = ["user", "marked_at", "reason"]
    search_fields = ["user__username", "reason"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
