"""Games: new games, the writes' bodies, the summary and state, the log."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from api.serializers.common import GRADES, RULE_LETTERS, RULE_LETTERS_ANY_CASE
from games.models import Game, MoveLogEntry

GAME_STATUSES = Game.Status.values
GAME_ORIGINS = Game.Origin.values


class NewGameSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_LETTERS_ANY_CASE, required=False)
    # Notation is parsed strictly (notation.md): no trimming of surrounding spaces.
    code = serializers.CharField(
        max_length=64, required=False, allow_blank=True, trim_whitespace=False
    )
    replaces = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**63 - 1,
        help_text="The game you leave for this one: deleted if untouched (no move yet) and an "
        "ordinary game; a daily attempt, a race game or a game with a move stays.",
    )
    difficulty = serializers.ChoiceField(
        choices=GRADES,
        required=False,
        help_text="Deal a deal proven winnable, of this grade (not with a code).",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("code") and data.get("difficulty"):
            raise serializers.ValidationError(
                {"difficulty": [_("A code names its deal: ask for a difficulty without one.")]}
            )
        return data


class VersionSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)


class MoveSerializer(VersionSerializer):
    move = serializers.CharField(max_length=32, trim_whitespace=False)


class RetrySerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(
        min_value=0, help_text="The position to start from: the game's version after that entry."
    )


class CardIntentSerializer(VersionSerializer):
    card = serializers.CharField(max_length=16, trim_whitespace=False)


class GameListQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)


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
        allow_null=True,
        help_text=(
            "Null while the deal is secret: a daily deal's until its UTC day has closed, and "
            "a race game's while its race runs (its racers share the deal)."
        ),
    )
    daily = serializers.DateField(
        allow_null=True, help_text="The UTC day whose daily deal this game plays, if any."
    )
    ranked = serializers.BooleanField(
        help_text="The player's first (ranked) attempt at that daily deal; later ones are practice."
    )
    origin = serializers.ChoiceField(
        choices=GAME_ORIGINS,
        help_text="How the game came to be: `fresh` (a new deal: random, of a difficulty, or "
        "typed from its code), `daily-ranked`, `daily-practice`, `retry`, `race`, `puzzle`, "
        "`arena`. "
        "Only `fresh` and `daily-ranked` results count for boards, streaks and records "
        "(docs/fair-play.md).",
    )
    retried_from = serializers.IntegerField(
        allow_null=True, help_text="A retry's game: the finished game it started from."
    )
    rule = serializers.ChoiceField(choices=RULE_LETTERS)
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    score = serializers.IntegerField()
    move_count = serializers.IntegerField()
    cards_on_foundations = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField(
        help_text="Time at the table from the first move: it stops while the game is parked "
        '(docs/api.md, "The clock").'
    )
    clock_running = serializers.BooleanField(
        help_text="Whether the clock counts now: a move or a resume came within the last "
        "3 minutes and the game is neither parked nor over."
    )
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
    can_finish = serializers.BooleanField(
        help_text="Every card is face up: POST /games/{id}/finish carries the rest home."
    )


class HelpOfferSerializer(serializers.Serializer[Any]):
    available = serializers.BooleanField(
        help_text="Whether a hint, winnability or analysis asked now would be given to you."
    )
    refusal = serializers.CharField(
        allow_null=True, help_text="If not, the code the server would refuse with (deal-in-play)."
    )
    message = serializers.CharField(allow_null=True, help_text="If not, why, in your language.")


class ViewedStateSerializer(GameStateSerializer):
    help = HelpOfferSerializer(
        help_text="The solver's help on this game for you, told before you ask "
        '(docs/api.md, "Help and ranked attempts").'
    )


class LogEntrySerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    move = serializers.CharField(help_text="Move notation, or 'undo'.")
    kind = serializers.ChoiceField(choices=MoveLogEntry.Kind.values)
    intent = serializers.ChoiceField(choices=MoveLogEntry.Intent.values)
    score_after = serializers.IntegerField()
    at = serializers.DateTimeField()


class ReplayStepSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="0 is the deal; then one step per log entry.")
    move = serializers.CharField(allow_null=True, help_text="The log entry, or 'undo'.")
    columns = ColumnSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    score = serializers.IntegerField()
    move_count = serializers.IntegerField()


class FinishSerializer(serializers.Serializer[Any]):
    state = GameStateSerializer(help_text="The game after the finish: won.")
    steps = ReplayStepSerializer(
        many=True, help_text="The public board after each move the finish played, in order."
    )
