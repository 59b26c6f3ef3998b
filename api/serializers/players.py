"""Players: profiles and their statistics, history."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.games import GAME_ORIGINS
from games.models import Game


class RuleStatsSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    games = serializers.IntegerField(help_text="Finished games (won or abandoned).")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    current_streak = serializers.IntegerField(help_text="Won games in a row, now.")
    best_streak = serializers.IntegerField()
    best_time_seconds = serializers.FloatField(allow_null=True, help_text="Unassisted wins.")
    best_time_game = serializers.IntegerField(allow_null=True)
    fewest_moves = serializers.IntegerField(allow_null=True, help_text="Unassisted wins.")
    fewest_moves_game = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField()
    current_daily_streak = serializers.IntegerField(
        help_text="Consecutive UTC days with a won ranked daily, up to today or yesterday."
    )
    best_daily_streak = serializers.IntegerField()
    last_daily_win = serializers.DateField(allow_null=True)


class AssistedGamesSerializer(serializers.Serializer[Any]):
    counted = serializers.ListField(
        child=serializers.CharField(), help_text="What games played with hints count for."
    )
    excluded = serializers.ListField(
        child=serializers.CharField(), help_text="What they never count for (records)."
    )


class ProfileSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    joined = serializers.DateTimeField()
    assisted_games = AssistedGamesSerializer(
        help_text="The service's one rule for games played with hints or winnability checks."
    )
    stats = serializers.DictField(child=RuleStatsSerializer(), help_text="Keyed by rule: C, R.")


class HistoryEntrySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    code = serializers.CharField(allow_null=True, help_text="Null for a still-running daily.")
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    daily = serializers.DateField(allow_null=True)
    ranked = serializers.BooleanField()
    origin = serializers.ChoiceField(choices=GAME_ORIGINS, help_text="How it came to be.")
    counted = serializers.BooleanField(
        help_text="Whether the result counts for boards, streaks and records (docs/fair-play.md)."
    )
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    score = serializers.IntegerField()
    cards_on_foundations = serializers.IntegerField()
    assisted = serializers.BooleanField()
    finished_at = serializers.DateTimeField()
