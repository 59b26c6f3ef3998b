"""The daily deal: today's deal and attempt, a day's ranking, replays."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import GRADES, RuleQuerySerializer
from api.serializers.games import (
    GameSummarySerializer,
    ReplayStepSerializer,
)
from games.models import Game


class DailyAttemptSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Game.Status.values)


class DailyTodaySerializer(serializers.Serializer[Any]):
    date = serializers.DateField()
    rule = serializers.ChoiceField(choices=Game.Rule.values, help_text="The daily's rule letter.")
    code = serializers.CharField(allow_null=True, help_text="Always null: the day is running.")
    grade = serializers.ChoiceField(
        choices=GRADES,
        allow_null=True,
        help_text="How hard the deal is (docs/solver.md); null while a task worker grades it, "
        "in the first moments of the day.",
    )
    players = serializers.IntegerField(
        help_text="Ranked attempts so far, with hints or without (both rankings together)."
    )
    ranked_game = serializers.IntegerField(
        allow_null=True, help_text="Your ranked game today (null if signed out or not started)."
    )
    attempts = DailyAttemptSerializer(many=True, help_text="Your games on today's deal.")
    practice_open = serializers.BooleanField(
        help_text="Whether `POST /daily/play` would deal you a practice game now: only once "
        "your ranked attempt has ended (always for a guest; false before your first attempt, "
        "which is the ranked one). docs/fair-play.md."
    )


class DailyEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Shared by ties: 1, 2, 2, 4.")
    player = serializers.CharField()
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField(help_text="Time at the table (the game clock).")
    cards_on_foundations = serializers.IntegerField()
    score = serializers.IntegerField(help_text="Shown, never a ranking key.")
    assisted = serializers.BooleanField()
    finished_at = serializers.DateTimeField(allow_null=True)


class DailySectionsSerializer(serializers.Serializer[Any]):
    without_hints = serializers.IntegerField(help_text="Ranked games played without assists.")
    with_hints = serializers.IntegerField(help_text="Ranked games played with hints or checks.")


class DailyRankingSerializer(serializers.Serializer[Any]):
    date = serializers.DateField()
    rule = serializers.ChoiceField(choices=Game.Rule.values, help_text="The daily's rule letter.")
    open = serializers.BooleanField(help_text="The day is still running (its code is hidden).")
    code = serializers.CharField(allow_null=True)
    assisted = serializers.BooleanField(help_text="This is the ranking of assisted games.")
    sections = DailySectionsSerializer(
        help_text="Ranked games in each of the day's two rankings (they add up to `players`)."
    )
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DailyEntrySerializer(many=True)
    me = DailyEntrySerializer(allow_null=True, help_text="Your row, wherever it ranks.")


class ReplaySerializer(serializers.Serializer[Any]):
    game = GameSummarySerializer()
    steps = ReplayStepSerializer(many=True)


class DayQuerySerializer(RuleQuerySerializer):
    assisted = serializers.BooleanField(required=False, default=False)
