"""Races: rooms and racers, quick match, race ratings and a player's races."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.engine import RULES
from games.models import Game
from games.races.models import Racer

RULE_CHOICES = list(RULES)


class RacerSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    guest = serializers.BooleanField(help_text="Guests race unrated.")
    seat = serializers.IntegerField()
    ready = serializers.BooleanField()
    state = serializers.ChoiceField(
        choices=[*Racer.State.values, "disconnected"],
        help_text="waiting, playing, disconnected (playing without a live socket), won, "
        "resigned, forfeited (away longer than the grace), finished (the race ended first).",
    )
    cards_on_foundations = serializers.IntegerField()
    face_down = serializers.IntegerField(help_text="Face-down cards left on the racer's board.")
    moves = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField(help_text="Server clock since the race's start.")
    finished_at = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField(allow_null=True, help_text="The final rank.")
    rating_before = serializers.FloatField(allow_null=True)
    rating_after = serializers.FloatField(allow_null=True)
    game = serializers.IntegerField(allow_null=True, help_text="Shown once the race is over.")


class ViewerSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    state = serializers.CharField()
    game = serializers.IntegerField(allow_null=True, help_text="Your race game, once started.")


class RaceStateSerializer(serializers.Serializer[Any]):
    room = serializers.CharField(help_text="The short room code (also the invite link's end).")
    rule = serializers.ChoiceField(choices=Game.Rule.values)
    status = serializers.ChoiceField(choices=["open", "countdown", "running", "finished"])
    version = serializers.IntegerField(help_text="The race feed's version.")
    private = serializers.BooleanField()
    quick = serializers.BooleanField()
    rated = serializers.BooleanField(
        help_text="Whether the race may rate anyone: a deal the server chose and two registered "
        "racers or more (an open room's free seats count); see `unrated_reason`."
    )
    unrated_reason = serializers.ChoiceField(
        choices=["chosen-deal", "guests"],
        allow_null=True,
        help_text="Why nobody's rating can change: `chosen-deal` (anyone could have solved it "
        "first) or `guests` (fewer than two registered racers); null while rated.",
    )
    creator = serializers.CharField()
    max_players = serializers.IntegerField()
    time_limit_seconds = serializers.IntegerField()
    grace_seconds = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField(allow_null=True, help_text="The countdown's end.")
    ends_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    end_reason = serializers.CharField(help_text="won, time-limit, all-done, empty, or ''.")
    server_now = serializers.DateTimeField(help_text="The server's clock for countdowns.")
    code = serializers.CharField(allow_null=True, help_text="Null until the race is over.")
    rematch = serializers.CharField(allow_null=True, help_text="The rematch's room, if any.")
    racers = RacerSerializer(many=True)
    me = ViewerSerializer(allow_null=True, required=False)


class NewRaceSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_CHOICES, required=False)
    code = serializers.CharField(required=False, max_length=32, help_text="Private rooms only.")
    private = serializers.BooleanField(required=False, default=False)
    time_limit_minutes = serializers.IntegerField(
        required=False, default=15, min_value=1, max_value=60
    )
    max_players = serializers.IntegerField(required=False, default=8, min_value=2, max_value=8)


class QueueRequestSerializer(serializers.Serializer[Any]):
    rule = serializers.ChoiceField(choices=RULE_CHOICES, required=False, default="C")


class QueueStatusSerializer(serializers.Serializer[Any]):
    waiting = serializers.BooleanField()
    rule = serializers.CharField(allow_null=True)
    joined_at = serializers.DateTimeField(allow_null=True)
    waited_seconds = serializers.FloatField()
    players_waiting = serializers.IntegerField()
    race = serializers.CharField(allow_null=True, help_text="Your race's room once matched.")


class RatingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    rating = serializers.FloatField(help_text="openskill's ordinal, mu - 3 sigma.")
    races = serializers.IntegerField()
    wins = serializers.IntegerField()
    podiums = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer[Any]):
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    races = serializers.IntegerField()
    wins = serializers.IntegerField()
    podiums = serializers.IntegerField()


class RaceHistorySerializer(serializers.Serializer[Any]):
    room = serializers.CharField()
    rule = serializers.CharField()
    code = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField()
    racers = serializers.IntegerField()
    state = serializers.CharField()
    cards_on_foundations = serializers.IntegerField()
    moves = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    rating_before = serializers.FloatField(allow_null=True)
    rating_after = serializers.FloatField(allow_null=True)


class PlayerRacesSerializer(serializers.Serializer[Any]):
    ratings = serializers.DictField(child=PlayerRatingSerializer(), help_text="Keyed by rule.")
    history = RaceHistorySerializer(many=True)
