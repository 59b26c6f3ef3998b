"""Your account: the e-mail address, the password, a data export, leaving."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from games.models import DataExport


def check_new_password(password: str, user: User) -> None:
    """`password` through Django's validators (AUTH_PASSWORD_VALIDATORS) for `user`: a 400
    naming the field `new_password` when they refuse it."""
    try:
        password_validation.validate_password(password, user)
    except DjangoValidationError as error:
        raise serializers.ValidationError({"new_password": list(error.messages)}) from None


class EmailChangeSerializer(serializers.Serializer[Any]):
    email = serializers.EmailField(max_length=254)


class LinkTokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=1000, help_text="The `token` of the e-mailed link.")


class EmailConfirmedSerializer(serializers.Serializer[Any]):
    email = serializers.CharField(help_text="The address now stored and confirmed.")


class PasswordChangeSerializer(serializers.Serializer[Any]):
    current_password = serializers.CharField(max_length=256, trim_whitespace=False)
    new_password = serializers.CharField(max_length=256, trim_whitespace=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        check_new_password(attrs["new_password"], self.context["user"])
        return attrs


class ResetRequestSerializer(serializers.Serializer[Any]):
    email = serializers.EmailField(max_length=254)


class ResetSerializer(LinkTokenSerializer):
    new_password = serializers.CharField(max_length=256, trim_whitespace=False)


class SentSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="What happens next, in the request's language.")


class CloseSerializer(serializers.Serializer[Any]):
    password = serializers.CharField(
        max_length=256,
        trim_whitespace=False,
        required=False,
        default="",
        help_text="The account's password (a guest has none and leaves it out).",
    )
    code = serializers.CharField(
        max_length=32,
        required=False,
        default="",
        help_text="The second factor's current code, when two-factor sign-in is on.",
    )


class ExportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=DataExport.Status.values)
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    download = serializers.CharField(
        allow_null=True, help_text="Where the owner downloads the zip once it is ready."
    )


def export_dict(export: DataExport) -> dict[str, Any]:
    ready = export.status == DataExport.Status.READY
    return {
        "id": export.pk,
        "status": export.status,
        "games_done": export.games_done,
        "games_total": export.games_total,
        "created_at": export.created_at,
        "finished_at": export.finished_at,
        "expires_at": export.expires_at,
        "download": f"/api/v1/me/export/{export.pk}/download" if ready else None,
    }
