"""Accounts: sign-up and sign-in, settings, API tokens, OAuth apps."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers

from accounts import usernames
from accounts.models import CardBack, TableColour
from accounts.scopes import SCOPES


class CredentialsSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class LoginSerializer(CredentialsSerializer):
    code = serializers.CharField(
        max_length=32,
        required=False,
        allow_blank=True,
        help_text=(
            "With two-factor sign-in on: the code the authenticator app shows, or an unused "
            "recovery code (without it the answer is 401 `second-factor-required`)."
        ),
    )


class RegisterSerializer(CredentialsSerializer):
    email = serializers.EmailField(required=False, allow_blank=True, default="")

    def validate_username(self, value: str) -> str:
        """The name as it will be stored (NFKC): its form and prefix are checked on that.
        Whether another player has it is the write's question (`usernames.claiming`)."""
        name = usernames.check_new(value)
        prefix = usernames.reserved_prefix(name)
        if prefix == usernames.GUEST_PREFIX:
            raise serializers.ValidationError(
                _("Usernames starting with %(prefix)s are kept for guests.") % {"prefix": prefix}
            )
        if prefix is not None:
            raise serializers.ValidationError(
                _("Usernames starting with %(prefix)s are kept for deleted accounts.")
                % {"prefix": prefix}
            )
        return name

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], candidate)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from None
        return attrs


SCOPE_NAMES = list(SCOPES)


class TokenCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=64)
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=SCOPE_NAMES),
        required=False,
        allow_empty=False,
        help_text="What the token may do (accounts.scopes); every scope when left out.",
    )


class SettingsSerializer(serializers.Serializer[Any]):
    double_click = serializers.BooleanField(required=False)
    placement_help = serializers.BooleanField(required=False)
    interactive_rules = serializers.BooleanField(required=False)
    auto_placement = serializers.BooleanField(required=False)
    four_colour_suits = serializers.BooleanField(required=False)
    card_back = serializers.ChoiceField(choices=CardBack.values, required=False)
    table_colour = serializers.ChoiceField(choices=TableColour.values, required=False)
    sounds = serializers.BooleanField(
        required=False, help_text="Sounds for a move, a refusal and a win (off by default)."
    )
    language = serializers.ChoiceField(choices=["", "en", "hu", "pt", "de"], required=False)


class RedirectUriField(serializers.URLField):
    """An OAuth app's redirect URI: an absolute URL with no user name or password in it
    (`https://user:pw@host/` only disguises where the codes go; RFC 3986 deprecates it)."""

    def to_internal_value(self, data: Any) -> str:
        uri = str(super().to_internal_value(data))
        if "@" in urlsplit(uri).netloc:
            raise serializers.ValidationError(
                _("A redirect URI may not hold a user name or password (user:password@).")
            )
        return uri


class OAuthAppCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=255)
    redirect_uris = serializers.ListField(
        child=RedirectUriField(max_length=500),
        allow_empty=False,
        max_length=10,
        help_text="Where the authorization code may be sent (exact match; loopback: any port).",
    )
    confidential = serializers.BooleanField(
        default=False,
        help_text="A server-side app that can keep a secret; public apps (default) use PKCE only.",
    )


class OAuthAppSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    client_id = serializers.CharField()
    redirect_uris = serializers.ListField(child=serializers.CharField())
    confidential = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class NewOAuthAppSerializer(OAuthAppSerializer):
    client_secret = serializers.CharField(
        allow_null=True, help_text="A confidential app's secret; shown once (stored hashed)."
    )


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    email_confirmed = serializers.BooleanField(
        help_text="The address was confirmed by its link: only a confirmed one gets resets."
    )
    guest = serializers.BooleanField(
        help_text="A guest account: sign up with POST /api/v1/auth/upgrade to keep it."
    )
    settings = SettingsSerializer()


class TokenSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPE_NAMES))


class NewTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The secret; shown once, never again.")
