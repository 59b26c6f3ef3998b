"""What every area shares: the rule letters, validating a request, the error body."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import Game
from games.odds.models import Grade

# Choice lists, derived from the models (whose rules come from the engine's RULES). The
# OpenAPI enum names in settings.SPECTACULAR_SETTINGS point at these by import path.
RULE_LETTERS = Game.Rule.values


RULE_LETTERS_ANY_CASE = [*RULE_LETTERS, *(letter.lower() for letter in RULE_LETTERS)]
#: Difficulty grades of proven-winnable deals (games.odds.grades).
GRADES = Grade.values


def validated(spec_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """`data` checked by `spec_class`: its validated fields, or a 400 that names the bad ones."""
    spec = spec_class(data=data)
    spec.is_valid(raise_exception=True)
    return dict(spec.validated_data)


class RuleQuerySerializer(serializers.Serializer[Any]):
    """`?rule=` of the lists kept per rule: leaderboards, a player's history, race ratings."""

    rule = serializers.ChoiceField(
        choices=RULE_LETTERS, required=False, default=Game.Rule.CLASSIC.value
    )


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


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()
