"""Arenas: the list, a new arena, an arena's state, the standings (games.arenas)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import RULE_LETTERS_ANY_CASE
from api.serializers.games import GameStateSerializer
from games.arenas.models import Arena
from games.arenas.play import MAX_MINUTES, MIN_MINUTES
from games.models import Game

ARENA_STATUSES = Arena.Status.values


class ArenaListQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=ARENA_STATUSES,
        required=False,
        default=Arena.Status.UPCOMING.value,
        help_text="upcoming (soonest first), running, or finished (latest first).",
    )


class NewArenaSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_LETTERS_ANY_CASE, default="C")
    starts_at = serializers.DateTimeField(
        required=False, help_text="When it starts (default: now); within the next 7 days."
    )
    minutes = serializers.IntegerField(min_value=MIN_MINUTES, max_value=MAX_MINUTES)
    private = serializers.BooleanField(
        default=False, help_text="Private: never listed, reached only by its link (`id`)."
    )
    name = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")


class StandingsQuerySerializer(serializers.Serializer[Any]):
    page = serializers.IntegerField(min_value=1, max_value=100_000, default=1)


class YourGameSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="Its deal's place in the sequence (0: deal 1).")
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    without_undo = serializers.BooleanField(help_text="Played without undo (+1 on a win).")


class YourSeatSerializer(serializers.Serializer[Any]):
    joined_at = serializers.DateTimeField()
    points = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True, help_text="The final rank, once over.")
    games = YourGameSerializer(many=True, help_text="Your games, in sequence order.")


class ArenaStateSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(
        help_text="What the API and links name it by: a public arena's number, a private "
        "arena's unguessable token."
    )
    name = serializers.CharField(
        help_text="A scheduled arena's schedule entry (`hourly`, `daily`, `weekly`, or the "
        "operator's), or the title its creator gave (may be empty)."
    )
    kind = serializers.ChoiceField(choices=Arena.Kind.values)
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    private = serializers.BooleanField()
    link = serializers.CharField(help_text="The arena's page.")
    status = serializers.ChoiceField(choices=ARENA_STATUSES)
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    server_now = serializers.DateTimeField()
    minutes = serializers.IntegerField()
    deals = serializers.IntegerField(help_text="How many deals its sequence holds.")
    codes = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="The deals' codes, in order: null until the arena is over.",
    )
    players = serializers.IntegerField()
    creator = serializers.CharField(allow_null=True, help_text="Null: made by the schedule.")
    seat = YourSeatSerializer(allow_null=True, help_text="Yours, if you joined.")


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    in_a_row = serializers.IntegerField(help_text="Wins in a row now (2 or more: on a streak).")
    games = serializers.IntegerField(help_text="Games ended.")
    time_ms = serializers.IntegerField(help_text="Total time of the ended games.")


class MineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(allow_null=True, help_text="Null: a guest or marked account.")
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    in_a_row = serializers.IntegerField()
    on_streak = serializers.BooleanField(help_text="Your next win scores 4.")
    games = serializers.IntegerField()
    time_ms = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="Your current (or last) game.")


class StandingsSerializer(serializers.Serializer[Any]):
    arena = serializers.CharField()
    status = serializers.ChoiceField(choices=ARENA_STATUSES)
    players = serializers.IntegerField(help_text="Everyone seated (guests included).")
    ranked = serializers.IntegerField(help_text="Rows of the table (guests, marked left out).")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    server_now = serializers.DateTimeField()
    seconds_left = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    rows = StandingRowSerializer(many=True, help_text="This page (page 1: the top 10).")
    around = StandingRowSerializer(many=True, help_text="Your row and two on each side.")
    mine = MineSerializer(allow_null=True)


class JoinedSerializer(serializers.Serializer[Any]):
    arena = ArenaStateSerializer()
    game = GameStateSerializer(
        allow_null=True, help_text="Your first game (null before the start)."
    )


class SeatGamesQuerySerializer(serializers.Serializer[Any]):
    player = serializers.CharField(max_length=150, help_text="Whose games (a username).")


class SeatGameSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="The deal's place in the sequence, from 0.")
    game = serializers.IntegerField()
    code = serializers.CharField(allow_null=True, help_text="Null until the arena is over.")
    status = serializers.ChoiceField(choices=Game.Status.values)
    cards_on_foundations = serializers.IntegerField()
    moves = serializers.IntegerField()
    without_undo = serializers.BooleanField()
    points = serializers.IntegerField(allow_null=True, help_text="Null while it is played.")
