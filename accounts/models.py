"""Player-owned records: assist settings, personal API tokens, two-factor sign-in, sessions."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable

from django.conf import settings
from django.contrib.sessions.models import Session
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


class Mark(models.Model):
    """A marked account, while it is marked (accounts.moderation): left off every public
    board and rating, its results hidden from others. Unmarking deletes this row only, so
    nothing the account played is lost; the history is `ModerationEntry`."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="mark"
    )
    marked_at = models.DateTimeField()
    reason = models.TextField()

    class Meta:
        verbose_name = "marked account"

    def __str__(self) -> str:
        return f"{self.user} (marked {self.marked_at:%Y-%m-%d %H:%M})"


class ModerationEntry(models.Model):
    """One line of the moderation audit log: who marked or unmarked which account, when, why.

    Names are copied so a line outlives both accounts (guests are purged)."""

    class Action(models.TextChoices):
        MARK = "mark"
        UNMARK = "unmark"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="moderation_entries",
        help_text="The account marked or unmarked.",
    )
    username = models.CharField(max_length=150)
    action = models.CharField(max_length=8, choices=Action.choices)
    reason = models.TextField(help_text="Why: shown in the audit log.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    actor_name = models.CharField(max_length=150)
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "moderation log entry"
        verbose_name_plural = "moderation log"

    def __str__(self) -> str:
        return f"{self.actor_name} {self.action}ed {self.username} at {self.at:%Y-%m-%d %H:%M}"


class PlaySource(models.Model):
    """Where an account signed in or started a game from, for the fair-play list
    (accounts.play_sources): keyed hashes of the address's network and of the browser,
    one row per account, source and day, purged after `FAIR_PLAY_DAYS`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_sources"
    )
    address = models.CharField(max_length=32, help_text="Keyed hash of the /24 or /64.")
    browser = models.CharField(
        max_length=32, blank=True, help_text="Keyed hash of the browser cookie; empty: none."
    )
    day = models.DateField()
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name_plural = "fair-play list"  # its admin page shows the list (games/admin.py)
        constraints = [
            models.UniqueConstraint(
                fields=["user", "address", "browser", "day"], name="play_source_once_a_day"
            )
        ]
        indexes = [
            models.Index(fields=["address"], name="play_source_address"),
            models.Index(fields=["browser"], name="play_source_browser"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.day}"


class TwoFactor(models.Model):
    """A player's authenticator app (TOTP, RFC 6238): on once `confirmed_at` is set.

    `last_step` is the time step of the last code accepted, so no code is accepted
    twice; `failures` counts wrong codes since `failures_since` (the brute-force
    throttle of `accounts.two_factor`).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="two_factor"
    )
    secret = models.CharField(max_length=64, help_text="Base32; what the authenticator holds.")
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    last_step = models.BigIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    failures_since = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"two-factor of {self.user}"


class RecoveryCode(models.Model):
    """A one-time code that stands in for the authenticator app; stored as its SHA-256."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="recovery_codes"
    )
    code_hash = models.CharField(max_length=64)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "code_hash"], name="recovery_code_lookup")]

    def __str__(self) -> str:
        return f"recovery code of {self.user}"


class SignedInSession(models.Model):
    """What the sessions page shows of one signed-in browser session: its device and when it
    was last seen. Goes with its Django session (deleted with it: signing out, expiry)."""

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signed_in_sessions"
    )
    user_agent = models.CharField(max_length=400, blank=True, default="")
    address_prefix = models.CharField(
        max_length=64, blank=True, default="", help_text="203.0.113.x, or an IPv6 /48."
    )
    signed_in_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()

    class Meta:
        ordering = ["-last_seen", "-id"]

    def __str__(self) -> str:
        return f"session of {self.user} from {self.address_prefix}"
