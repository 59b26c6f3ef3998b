"""The daily shared deal: today's status, playing it, each day's ranking, and replays.

The deal's code never leaves the server while its UTC day runs; past days show
it, and their ranked games can be replayed move by move. Every endpoint takes an
optional `?rule=` letter: omitted (or `C`) it is the main, Classic daily; another
letter is that rule's own daily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.docs import errors
from api.pagination import PAGE_PARAMETERS, page
from api.serializers.common import RuleQuerySerializer, validated
from api.serializers.daily import (
    DailyRankingSerializer,
    DailyTodaySerializer,
    DayQuerySerializer,
    ReplaySerializer,
)
from api.serializers.games import GameStateSerializer
from games import daily, days, deals, leaderboards, services
from games.engine import GameCode, Rule
from games.fairness import dealing, visibility
from games.fairness.dealing import RankedAttemptPending
from games.models import Game
from games.odds import graded
from games.public import game_state, game_summary
from ops.replica import reads_from_replica

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

# ---- response shapes (schema documentation) -------------------------------------------------


# ---- helpers --------------------------------------------------------------------------------

DAY_PARAMETER = OpenApiParameter(
    "day", OpenApiTypes.DATE, location=OpenApiParameter.PATH, description="A UTC day."
)
RULE_PARAMETER = OpenApiParameter(
    "rule",
    str,
    enum=Game.Rule.values,
    required=False,
    description="Whose daily: C (the main, Classic daily; the default) or another rule's own.",
)


def daily_rule(request: Request) -> Rule:
    """The rule of the daily a request names with `?rule=` (Classic when omitted)."""
    return Rule.from_letter(validated(RuleQuerySerializer, request.query_params)["rule"])


def played_day(text: str, rule: Rule) -> daily.DayDeal:
    """A day that has a deal under `rule`: today or a past day, played or not (games.daily)."""
    day = days.parse_day(text)
    days.ensure_come(day)
    if day == days.today():
        return daily.deal_for(day, rule=rule)
    deal = daily.past_deal(day, rule)
    if deal is None:
        raise NotFound(
            f"There is no {rule.name} daily deal for {day} (nobody played it, and a day more "
            f"than {daily.DAYS_DEALT_AFTERWARDS} days ago is not dealt afterwards; or no "
            "candidate of that day was proven winnable)."
        )
    return deal


# ---- views ----------------------------------------------------------------------------------


class DailyTodayView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_today",
        summary="Today's daily deal (UTC): your attempts, without the code while the day runs",
        parameters=[RULE_PARAMETER],
        responses={200: DailyTodaySerializer, **errors(400, 503)},
    )
    def get(self, request: Request) -> Response:
        rule = daily_rule(request)
        deal = daily.deal_for(days.today(), rule=rule)
        code = str(daily.code_of(deal))
        mine = (
            daily.attempts(request.user, deal.date, rule) if request.user.is_authenticated else []
        )
        ranked = next((game.pk for game in mine if game.ranked), None)
        return Response(
            {
                "date": deal.date.isoformat(),
                "rule": rule.letter,
                "code": visibility.revealed_code(deal),
                "grade": graded.day_grade(rule, deal.number),
                "players": Game.objects.filter(
                    daily_date=deal.date, rule=rule.letter, ranked=True
                ).count(),
                "ranked_game": ranked,
                "attempts": [
                    {"game": game.pk, "ranked": game.ranked, "status": game.status} for game in mine
                ],
                "practice_open": bool(mine) and dealing.may_deal(request.user, code),
            }
        )


class DailyPlayView(APIView):
    required_scope = "game:play"

    @extend_schema(
        summary="Start an attempt at today's deal: the first is ranked, later ones are practice",
        description="A later attempt (practice) only once the ranked one has ended: before, "
        "409 `ranked-attempt-pending` (no rehearsal of the deal: docs/fair-play.md).",
        parameters=[RULE_PARAMETER],
        request=None,
        responses={
            201: GameStateSerializer,
            **errors(400, 401, 409, 503, codes={409: [RankedAttemptPending]}),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        rule = daily_rule(request)
        game = services.start_game(request.user, daily=True, rule=rule.letter)
        return Response(game_state(game), status=status.HTTP_201_CREATED)


class DailyRankingView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_ranking",
        summary="A day's ranking: winners by moves then time, then the rest by cards home",
        description=(
            "Ranked attempts only (each player's first game of the day). Assisted games "
            "(hints) are ranked apart: `?assisted=true`. The code is null while the day runs."
        ),
        parameters=[
            DAY_PARAMETER,
            RULE_PARAMETER,
            OpenApiParameter("assisted", bool, required=False),
            *PAGE_PARAMETERS,
        ],
        responses={200: DailyRankingSerializer, **errors(400, 404, 503)},
    )
    @reads_from_replica
    def get(self, request: Request, day: str) -> Response:
        spec = validated(DayQuerySerializer, request.query_params)
        rule = Rule.from_letter(spec["rule"])
        deal = played_day(day, rule)
        assisted = bool(spec["assisted"])
        rows = leaderboards.daily_rows(deal.date, assisted=assisted, rule=rule.letter)
        mine = leaderboards.own_row(rows, request.user, field="owner")
        body: dict[str, Any] = {
            "date": deal.date.isoformat(),
            "rule": rule.letter,
            "open": days.is_open(deal.date),
            "code": visibility.revealed_code(deal),
            "assisted": assisted,
            "sections": leaderboards.daily_sections(deal.date, rule.letter),
            **page(request, self, rows, leaderboards.daily_entry),
            "me": leaderboards.daily_entry(mine) if mine is not None else None,
        }
        return Response(body)


class DailyReplayView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Replay a ranked game of a closed day: the public board after every log entry",
        parameters=[DAY_PARAMETER, RULE_PARAMETER],
        responses={200: ReplaySerializer, **errors(400, 403, 404)},
    )
    @reads_from_replica
    def get(self, request: Request, day: str, game_id: int) -> Response:
        deal = played_day(day, daily_rule(request))
        game = get_object_or_404(
            Game.objects.select_related("owner"),
            pk=game_id,
            daily_date=deal.date,
            rule=deal.rule,
            ranked=True,
        )
        visibility.ensure_day_closed(deal.date, "replays")
        texts = list(game.log.order_by("seq").values_list("text", flat=True))
        steps = deals.public_steps(deals.new_game(GameCode.parse(game.code)), texts)
        return Response({"game": game_summary(game), "steps": steps})
