"""Request specs (validated input) and response shapes (documented in the OpenAPI schema).

Responses are produced by `games.public` and the models' `to_dict`; the
response serializers here describe those shapes for the schema only.
"""

from __future__ import annotations

import re
from typing import Any, cast
from urllib.parse import urlsplit

from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers

from accounts import usernames
from accounts.models import CardBack, TableColour
from accounts.scopes import SCOPES
from games.models import Game, MoveLogEntry

# Choice lists, derived from the models (whose rules come from the engine's RULES). The
# OpenAPI enum names in settings.SPECTACULAR_SETTINGS point at these by import path.
RULE_LETTERS = Game.Rule.values
RULE_LETTERS_ANY_CASE = [*RULE_LETTERS, *(letter.lower() for letter in RULE_LETTERS)]
GAME_STATUSES = Game.Status.values
WINNABILITY_STATUSES = ["winnable", "no-longer-winnable", "unknown"]

# ---- requests -------------------------------------------------------------------------------


def validated(spec_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """`data` checked by `spec_class`: its validated fields, or a 400 that names the bad ones."""
    spec = spec_class(data=data)
    spec.is_valid(raise_exception=True)
    return dict(spec.validated_data)


class CredentialsSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class RegisterSerializer(CredentialsSerializer):
    email = serializers.EmailField(required=False, allow_blank=True, default="")

    def validate_username(self, value: str) -> str:
        """The name as it will be stored (NFKC): its form and prefix are checked on that.
        Whether another player has it is the write's question (`usernames.claiming`)."""
        name = usernames.normalize(value)
        # RegexValidator compiles its pattern on construction (the stubs also allow a str).
        if not cast(re.Pattern[str], User.username_validator.regex).match(name):
            raise serializers.ValidationError(_("Use letters, digits and @.+-_ only."))
        if len(name) > usernames.MAX_LENGTH:
            too_long = serializers.CharField.default_error_messages["max_length"]
            raise serializers.ValidationError(too_long.format(max_length=usernames.MAX_LENGTH))
        if usernames.is_reserved(name):
            raise serializers.ValidationError(
                _("Usernames starting with %(prefix)s are kept for guests.")
                % {"prefix": usernames.GUEST_PREFIX}
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


class NewGameSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_LETTERS_ANY_CASE, required=False)
    # Notation is parsed strictly (notation.md): no trimming of surrounding spaces.
    code = serializers.CharField(
        max_length=64, required=False, allow_blank=True, trim_whitespace=False
    )


class VersionSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)


class MoveSerializer(VersionSerializer):
    move = serializers.CharField(max_length=32, trim_whitespace=False)


class CardIntentSerializer(VersionSerializer):
    card = serializers.CharField(max_length=16, trim_whitespace=False)


class GameListQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)


class RuleQuerySerializer(serializers.Serializer[Any]):
    """`?rule=` of the lists kept per rule: leaderboards, a player's history, race ratings."""

    rule = serializers.ChoiceField(
        choices=RULE_LETTERS, required=False, default=Game.Rule.CLASSIC.value
    )


# ---- responses (schema documentation) -------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable machine code, e.g. empty-column-needs-king.")
    message = serializers.CharField(help_text="Human message in English.")
    rule = serializers.CharField(required=False, help_text="Rule family of an engine refusal.")
    # The serializer metaclass pops declared fields, so this does not replace `.fields`.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Per-field problems (400; also 409 username-taken)."
    )
    state = serializers.DictField(required=False, help_text="Current game state (409).")
    retry_after_seconds = serializers.IntegerField(required=False, help_text="429 only.")
    scope = serializers.CharField(required=False, help_text="The scope a token lacks (403).")


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


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()


class ColumnSerializer(serializers.Serializer[Any]):
    face_down = serializers.IntegerField(help_text="How many face-down cards (never which).")
    face_up = serializers.ListField(child=serializers.CharField(), help_text="Bottom to top.")


class FoundationSerializer(serializers.Serializer[Any]):
    suit = serializers.ChoiceField(choices=["S", "H", "D", "C"])
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


class GameSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    owner = serializers.CharField()
    code = serializers.CharField(
        allow_null=True, help_text="Null for a daily deal until its UTC day has closed."
    )
    daily = serializers.DateField(
        allow_null=True, help_text="The UTC day whose daily deal this game plays, if any."
    )
    ranked = serializers.BooleanField(
        help_text="The player's first (ranked) attempt at that daily deal; later ones are practice."
    )
    rule = serializers.ChoiceField(choices=RULE_LETTERS)
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    score = serializers.IntegerField()
    move_count = serializers.IntegerField()
    cards_on_foundations = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField()
    assisted = serializers.BooleanField()
    closed = serializers.BooleanField(
        help_text=(
            "A ranked daily game whose day closed unfinished: frozen (no moves, no assists, "
            "no legal moves, its clock stopped at the close), ranked as it stood."
        )
    )
    created_at = serializers.DateTimeField()
    first_move_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GameStateSerializer(GameSummarySerializer):
    columns = ColumnSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    undo_depth = serializers.IntegerField()
    legal_moves = serializers.ListField(child=serializers.CharField())


class LogEntrySerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    move = serializers.CharField(help_text="Move notation, or 'undo'.")
    kind = serializers.ChoiceField(choices=MoveLogEntry.Kind.values)
    intent = serializers.ChoiceField(choices=MoveLogEntry.Intent.values)
    score_after = serializers.IntegerField()
    at = serializers.DateTimeField()


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
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


class WinnabilitySerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The game version the answer is about.")
    status = serializers.ChoiceField(choices=WINNABILITY_STATUSES)
    reason = serializers.CharField(allow_null=True, help_text="Why unknown: time-budget.")
    nodes = serializers.IntegerField()
    seconds = serializers.FloatField()


class HintSerializer(WinnabilitySerializer):
    move = serializers.CharField(allow_null=True, help_text="Next move of a winning line.")


class AssistPendingSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The game version the solve is for.")
    status = serializers.ChoiceField(choices=["pending"])
    push = serializers.ChoiceField(
        choices=["hint", "winnability"],
        help_text="The message type that brings the answer on the game's feed (owner only).",
    )
    feed = serializers.CharField(help_text="The websocket path of the game's feed.")


class PositionVerdictSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="0: the deal; v: after the log entry of v.")
    verdict = serializers.ChoiceField(choices=["winnable", "unwinnable", "unknown"])
    reason = serializers.CharField(allow_null=True, help_text="Unknown: the budget that ran out.")


class AnalysisBoardSerializer(serializers.Serializer[Any]):
    columns = ColumnSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    score = serializers.IntegerField()
    move_count = serializers.IntegerField()


class LosingMoveSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The log entry after which it was lost.")
    move = serializers.CharField()
    better_move = serializers.CharField(help_text="A move there that kept the game winnable.")
    better_board = AnalysisBoardSerializer(
        help_text="The board after the better move (a card it turns up stays face down)."
    )


class AnalysisSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["not-finished", "pending", "partial", "done"],
        help_text="not-finished: the game is still being played.",
    )
    last_version = serializers.IntegerField(help_text="The log's last version.")
    node_budget = serializers.IntegerField(help_text="Solver positions allowed per position.")
    verdicts = PositionVerdictSerializer(many=True)
    losing_move = LosingMoveSerializer(allow_null=True)
    shortest_line = serializers.IntegerField(
        allow_null=True, help_text="Moves of the shortest win the solver found from the deal."
    )
    extra_moves = serializers.IntegerField(
        allow_null=True, help_text="A won game: how many moves longer than that line."
    )
