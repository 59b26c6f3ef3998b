"""Players: profiles and their statistics, history."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

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
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    score = serializers.IntegerField()
    cards_on_foundations = serializers.IntegerField()
    assisted = serializers.BooleanField()
    finished_at = serializers.DateTimeField()


class RatingPointSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    rating = serializers.FloatField(help_text="The shown rating after it: mu - 3 sigma.")
    change = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(
        allow_null=True, help_text="openskill's sigma after it: the band is rating +- sigma."
    )


class RacePointSerializer(RatingPointSerializer):
    race = serializers.CharField(help_text="The race's room: /races/<room>.")
    place = serializers.IntegerField(allow_null=True)


class PuzzlePointSerializer(RatingPointSerializer):
    puzzle = serializers.IntegerField()
    solved = serializers.BooleanField()


class RaceRatingChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(
        child=RacePointSerializer(many=True), help_text="Keyed by rule, oldest race first."
    )


class PuzzleRatingChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    points = PuzzlePointSerializer(many=True, help_text="Rated answers, oldest first.")


class DailyCellSerializer(serializers.Serializer[Any]):
    date = serializers.DateField()
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    state = serializers.ChoiceField(choices=["played", "won", "won-without-help"])
    rank = serializers.IntegerField(help_text="In the day's ranking (with or without help).")
    game = serializers.IntegerField()


class DailiesChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    from_ = serializers.DateField(help_text="The first day covered (a year ago).")
    to = serializers.DateField()
    cells = DailyCellSerializer(many=True, help_text="Days played only; a missing day: not played.")

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class WeekSerializer(serializers.Serializer[Any]):
    week = serializers.DateField(help_text="The week's Monday (UTC).")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()


class WinRateChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(child=WeekSerializer(many=True), help_text="Keyed by rule.")


class WinPointSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    game = serializers.IntegerField()
    seconds = serializers.FloatField()
    moves = serializers.IntegerField()


class WinsChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    points = WinPointSerializer(
        many=True, help_text="The newest 500 wins without help, oldest first."
    )


class TurningBarSerializer(serializers.Serializer[Any]):
    move = serializers.IntegerField(help_text="The move after which the game was lost.")
    games = serializers.IntegerField()


class TurningPointsChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(child=TurningBarSerializer(many=True), help_text="By rule.")
