"""Player-owned records: assist settings and personal API tokens."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable

from django.conf import settings
from django.db import models
from oauth2_provider.settings import oauth2_settings

from accounts.scopes import SCOPES, format_scopes, parse_scopes

TOKEN_PREFIX = "yk_"


def hash_token(raw: str) -> str:
    """Tokens are stored as SHA-256 digests: a leaked table grants nothing."""
    return hashlib.sha256(raw.encode()).hexdigest()


class CardBack(models.TextChoices):
    """The patterns a face-down card can wear (drawn in CSS: app.css)."""

    BLUE = "blue"
    RED = "red"
    GREEN = "green"
    NIGHT = "night"


class TableColour(models.TextChoices):
    """The felt colours of the table and every page (drawn in CSS: app.css)."""

    GREEN = "green"
    BLUE = "blue"
    WINE = "wine"
    SLATE = "slate"


class PlayerSettings(models.Model):
    """The player assists of RULES.md, with the app's defaults, display preferences, guest flag."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_settings"
    )
    double_click = models.BooleanField(default=True)
    placement_help = models.BooleanField(default=True)
    interactive_rules = models.BooleanField(default=True)
    auto_placement = models.BooleanField(default=False)
    four_colour_suits = models.BooleanField(default=False)
    card_back = models.CharField(max_length=8, choices=CardBack.choices, default=CardBack.BLUE)
    table_colour = models.CharField(
        max_length=8, choices=TableColour.choices, default=TableColour.GREEN
    )
    sounds = models.BooleanField(default=False, help_text="Short synthesized sounds; off.")
    language = models.CharField(max_length=8, blank=True, default="")
    email_confirmed = models.BooleanField(
        default=False,
        help_text="The e-mail address was confirmed by a link sent to it (accounts.addresses).",
    )
    is_guest = models.BooleanField(
        default=False,
        help_text="A guest account: no password, never on a leaderboard, purged when idle.",
    )

    ASSIST_FIELDS = (
        "double_click",
        "placement_help",
        "interactive_rules",
        "auto_placement",
        "four_colour_suits",
        "card_back",
        "table_colour",
        "sounds",
        "language",
    )

    class Meta:
        indexes = [
            models.Index(
                fields=["user"], condition=models.Q(is_guest=True), name="settings_guests"
            ),
        ]

    def __str__(self) -> str:
        return f"settings of {self.user}"

    def to_dict(self) -> dict[str, object]:
        return {field: getattr(self, field) for field in self.ASSIST_FIELDS}

    @classmethod
    def for_user(cls, user: models.Model) -> PlayerSettings:
        player_settings, _ = cls.objects.get_or_create(user=user)
        return player_settings


class ApiToken(models.Model):
    """A named personal token for third-party clients, sent as `Authorization: Bearer ...`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=64)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    scopes = models.CharField(
        max_length=200, default="", help_text="Space-separated scope names (accounts.scopes)."
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}...)"

    @classmethod
    def issue(
        cls, user: models.Model, name: str, scopes: Iterable[str] = tuple(SCOPES)
    ) -> tuple[ApiToken, str]:
        """A new token (every scope unless told); its raw value is returned once, never stored."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user,
            name=name,
            key_hash=hash_token(raw),
            prefix=raw[: len(TOKEN_PREFIX) + 6],
            scopes=format_scopes(scopes),
        )
        return token, raw

    @property
    def scope_set(self) -> frozenset[str]:
        return parse_scopes(self.scopes)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.pk,
            "name": self.name,
            "prefix": self.prefix,
            "created_at": self.created_at,
            "last_used_at": self.last_used_at,
            "scopes": self.scopes.split(),
        }


class TradedCode(models.Model):
    """An OAuth authorization code already traded for tokens, kept to recognise its replay.

    The toolkit deletes a code when it is traded, so a second trade could only be
    refused; RFC 6749 section 4.1.2 also asks to revoke what the code issued (a replay
    means the code leaked). This row remembers the token family the trade started, by
    the code's checksum only (`accounts.oauth`).
    """

    application = models.ForeignKey(oauth2_settings.APPLICATION_MODEL, on_delete=models.CASCADE)
    code_checksum = models.CharField(max_length=64)
    token_family = models.UUIDField(null=True, help_text="The family of the refresh tokens.")
    access_token_checksum = models.CharField(max_length=64)
    traded_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["code_checksum"], name="traded_code_checksum")]

    def __str__(self) -> str:
        return f"code traded at {self.traded_at:%Y-%m-%d %H:%M:%S}"
