"""Leaderboards: the boards and their pages."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import Game

ASSISTED_HELP = (
    "Whether games played with hints or winnability checks count on this board: they count "
    "for wins and win rate, never for best time, fewest moves or the daily streak."
)


class BoardSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    title = serializers.CharField(help_text="In the request's language.")
    counts_assisted = serializers.BooleanField(help_text=ASSISTED_HELP)
    min_games = serializers.IntegerField(
        allow_null=True, help_text="Finished games a player needs to be listed (win rate: 20)."
    )


class BoardEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Shared by ties: 1, 2, 2, 4.")
    player = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    best_time_seconds = serializers.FloatField(allow_null=True)
    best_time_game = serializers.IntegerField(allow_null=True)
    fewest_moves = serializers.IntegerField(allow_null=True)
    fewest_moves_game = serializers.IntegerField(allow_null=True)
    best_daily_streak = serializers.IntegerField()
    current_daily_streak = serializers.IntegerField()
    best_score = serializers.IntegerField(help_text="Shown, never a ranking key.")


class BoardPageSerializer(serializers.Serializer[Any]):
    board = serializers.CharField()
    title = serializers.CharField(help_text="In the request's language.")
    counts_assisted = serializers.BooleanField(help_text=ASSISTED_HELP)
    min_games = serializers.IntegerField(
        allow_null=True, help_text="Finished games a player needs to be listed (win rate: 20)."
    )
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = BoardEntrySerializer(many=True)
    me = BoardEntrySerializer(allow_null=True, help_text="Your row, wherever it ranks.")
