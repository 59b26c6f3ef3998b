"""Your account's security: two-factor sign-in and the signed-in sessions."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

CODE_HELP = "The 6 digits the authenticator app shows now, or an unused recovery code."


class SecondFactorCodeSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=32, help_text=CODE_HELP)


class TwoFactorStatusSerializer(serializers.Serializer[Any]):
    enabled = serializers.BooleanField()
    recovery_codes_left = serializers.IntegerField(help_text="Unused recovery codes (0 when off).")


class TwoFactorSetupSerializer(serializers.Serializer[Any]):
    secret = serializers.CharField(help_text="Base32; type it into the app if it cannot scan.")
    otpauth_uri = serializers.CharField(help_text="The otpauth:// URI the QR code holds.")
    qr_svg = serializers.CharField(help_text="The QR code as an SVG data URI (an img src).")


class RecoveryCodesSerializer(TwoFactorStatusSerializer):
    recovery_codes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Ten one-time codes, each standing in for the app once; shown only now.",
    )


class SignedInSessionSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    browser = serializers.CharField(help_text='Read from the user agent: "Firefox on Windows".')
    user_agent = serializers.CharField()
    place = serializers.CharField(
        help_text="The address it was last seen from, cut short: 203.0.113.x or an IPv6 /48."
    )
    signed_in_at = serializers.DateTimeField()
    last_seen = serializers.DateTimeField(help_text="Within five minutes.")
    current = serializers.BooleanField(help_text="The session making this request.")


class SignedOutSerializer(serializers.Serializer[Any]):
    signed_out = serializers.IntegerField(help_text="How many sessions ended.")
