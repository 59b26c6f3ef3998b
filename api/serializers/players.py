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


class ArenaRecordSerializer(serializers.Serializer[Any]):
    played = serializers.IntegerField()
    podiums = serializers.IntegerField(help_text="Final ranks 1 to 3.")
    best_rank = serializers.IntegerField(allow_null=True, help_text="Null: never ranked.")


class ProfileSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    joined = serializers.DateTimeField()
    assisted_games = AssistedGamesSerializer(
        help_text="The service's one rule for games played with hints or winnability checks."
    )
    stats = serializers.DictField(child=RuleStatsSerializer(), help_text="Keyed by rule: C, R.")
    arenas = ArenaRecordSerializer(help_text="Arenas played to their end (docs/arenas.md).")


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


def _ints(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text=help_text)


def _floats(help_text: str = "", *, nullable: bool = False) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.FloatField(allow_null=nullable), help_text=help_text
    )


AT = "Unix seconds (UTC), oldest first."


class RatingColumnsSerializer(serializers.Serializer[Any]):
    """A rating's changes as parallel lists: index i of each is the i-th change."""

    at = _ints(AT)
    rating = _floats("The shown rating after it: openskill's ordinal, mu - 3 sigma.")
    change = _floats("rating minus the rating before it.", nullable=True)
    sigma = _floats(
        "openskill's sigma after it (null before it was kept): the band is rating +- sigma.",
        nullable=True,
    )


class RaceColumnsSerializer(RatingColumnsSerializer):
    race = serializers.ListField(
        child=serializers.CharField(), help_text="The race's room: /races/<room>."
    )
    place = _ints("The place taken.")


class PuzzleColumnsSerializer(RatingColumnsSerializer):
    puzzle = _ints()
    solved = serializers.ListField(child=serializers.BooleanField())


class RaceRatingChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(child=RaceColumnsSerializer(), help_text="Keyed by rule.")


class PuzzleRatingChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    points = PuzzleColumnsSerializer(help_text="Rated answers.")


class DailyColumnsSerializer(serializers.Serializer[Any]):
    date = serializers.ListField(child=serializers.DateField(), help_text="Oldest first.")
    rule = serializers.ListField(child=serializers.ChoiceField(choices=Game.Rule.values))
    state = serializers.ListField(
        child=serializers.ChoiceField(choices=["played", "won", "won-without-help"])
    )
    rank = _ints("In the day's ranking (with help, or without).")
    game = _ints()


class DailiesChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    from_ = serializers.DateField(help_text="The first day covered (364 days before `to`).")
    to = serializers.DateField()
    cells = DailyColumnsSerializer(
        help_text="A cell per day and rule played; a day and rule not listed was not played."
    )

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class WeekColumnsSerializer(serializers.Serializer[Any]):
    at = _ints("Each week's Monday, 00:00 UTC, in Unix seconds.")
    games = _ints("Games finished that week.")
    wins = _ints()


class WinRateChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(child=WeekColumnsSerializer(), help_text="Keyed by rule.")


class WinColumnsSerializer(serializers.Serializer[Any]):
    at = _ints(AT)
    seconds = _floats("Time played.")
    moves = _ints()
    game = _ints()


class WinsChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(
        child=WinColumnsSerializer(),
        help_text="Keyed by rule: the newest 500 wins without help over all rules.",
    )


class TurningColumnsSerializer(serializers.Serializer[Any]):
    move = _ints("The move after which the game could no longer be won.")
    games = _ints("Lost games lost there.")


class TurningPointsChartSerializer(serializers.Serializer[Any]):
    chart = serializers.CharField()
    series = serializers.DictField(child=TurningColumnsSerializer(), help_text="Keyed by rule.")
