"""Public player profiles: statistics per rule and the history of finished games."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import usernames
from api.docs import errors
from api.pagination import PAGE_PARAMETERS, page, page_of
from api.serializers import RuleQuerySerializer, validated
from games import stats
from games.models import Game
from ops.replica import replica_reads


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


def _player(username: str) -> object:
    """An active registered player, by name in any case or width (`accounts.usernames`):
    guests have no public profile (404, like nobody)."""
    players = get_user_model().objects.exclude(player_settings__is_guest=True)
    return get_object_or_404(usernames.matching(username, players), is_active=True)


def replica_unless_own(request: Request, username: str) -> AbstractContextManager[None]:
    """Another player's pages may come from the replica; your own come from the primary, so
    the game you just finished is already in them (ops/replica.py)."""
    own = request.user.is_authenticated and usernames.same(request.user.get_username(), username)
    return replica_reads(enabled=not own)


class ProfileView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's public profile: statistics per rule",
        responses={200: ProfileSerializer, **errors(404)},
    )
    def get(self, request: Request, username: str) -> Response:
        with replica_unless_own(request, username):
            return Response(stats.profile(_player(username)))  # type: ignore[arg-type]


class HistoryView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's finished games under a rule (default C), newest first",
        parameters=[
            OpenApiParameter("rule", enum=Game.Rule.values, required=False),
            *PAGE_PARAMETERS,
        ],
        responses={200: page_of(HistoryEntrySerializer), **errors(400, 404)},
    )
    def get(self, request: Request, username: str) -> Response:
        rule = validated(RuleQuerySerializer, request.query_params)["rule"]
        with replica_unless_own(request, username):
            results = stats.history(_player(username), rule)  # type: ignore[arg-type]
            return Response(page(request, self, results, stats.history_entry))
