"""Public player profiles: statistics per rule and the history of finished games."""

from __future__ import annotations

from contextlib import AbstractContextManager

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import moderation, usernames
from api.docs import errors
from api.pagination import PAGE_PARAMETERS, page, page_of
from api.serializers.common import RuleQuerySerializer, validated
from api.serializers.players import (
    DailiesChartSerializer,
    HistoryEntrySerializer,
    ProfileSerializer,
    PuzzleRatingChartSerializer,
    RaceRatingChartSerializer,
    TurningPointsChartSerializer,
    WinRateChartSerializer,
    WinsChartSerializer,
)
from games import charts, stats
from games.arenas import standings as arena_standings
from games.models import Game
from ops.replica import replica_reads


def _player(username: str, viewer: User | AnonymousUser) -> object:
    """An active registered player, by name in any case or width (`accounts.usernames`):
    guests have no public profile (404, like nobody), nor has a marked player for anyone
    but themselves (`accounts.moderation`)."""
    players = get_user_model().objects.exclude(player_settings__is_guest=True)
    player = get_object_or_404(usernames.matching(username, players), is_active=True)
    if moderation.hidden_from(player, viewer):
        raise Http404(f"There is no player {username!r}.")
    return player


def replica_unless_own(request: Request, username: str) -> AbstractContextManager[None]:
    """Another player's pages may come from the replica; your own come from the primary, so
    the game you just finished is already in them (ops/replica.py)."""
    own = request.user.is_authenticated and usernames.same(request.user.get_username(), username)
    return replica_reads(enabled=not own)


class ProfileView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's public profile: statistics per rule, arenas",
        responses={200: ProfileSerializer, **errors(404)},
    )
    def get(self, request: Request, username: str) -> Response:
        with replica_unless_own(request, username):
            player = _player(username, request.user)
            profile = stats.profile(player)  # type: ignore[arg-type]
            arenas = arena_standings.record(player.pk)  # type: ignore[attr-defined]
            return Response({**profile, "arenas": arenas})


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
            results = stats.history(_player(username, request.user), rule)  # type: ignore[arg-type]
            return Response(page(request, self, results, stats.history_entry))


CHART_ANSWERS = PolymorphicProxySerializer(
    component_name="Chart",
    serializers={
        "race-rating": RaceRatingChartSerializer,
        "puzzle-rating": PuzzleRatingChartSerializer,
        "dailies": DailiesChartSerializer,
        "win-rate": WinRateChartSerializer,
        "wins": WinsChartSerializer,
        "turning-points": TurningPointsChartSerializer,
    },
    resource_type_field_name="chart",
)


class ChartView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A chart of a player's progress: ratings, dailies, win rate, wins, turning points",
        parameters=[OpenApiParameter("chart", location="path", enum=list(charts.CHARTS))],
        responses={200: CHART_ANSWERS, **errors(404, codes={404: [charts.UnknownChart]})},
    )
    def get(self, request: Request, username: str, chart: str) -> Response:
        with replica_unless_own(request, username):
            player = _player(username, request.user)
            return Response(charts.chart(chart, player, request.user))  # type: ignore[arg-type]
