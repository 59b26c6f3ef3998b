"""Post-game analysis of a game, and a closed daily deal's winning line."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.docs import errors
from api.serializers.assists import AnalysisSerializer, DealLineSerializer
from api.views.daily import (
    DAY_PARAMETER,
    RULE_PARAMETER,
    daily_rule,
    played_day,
)
from games import daily, deals
from games.analysis import deal_lines, jobs
from games.engine import GameCode
from games.fairness import solver_help, visibility
from games.fairness.solver_help import DealInPlay
from games.models import Game


class GameAnalysisView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The solver's analysis of a finished game: a verdict for every version",
        description=(
            "Queued when a game ends (won, abandoned, or a daily left unfinished when its "
            "day closed) and run on the task workers: `pending` (nothing yet), `partial` "
            "(some verdicts), `done`. Someone else's daily game is hidden (403) until its "
            "UTC day closes, as its log and replay are; a race game's, to everybody (its "
            "racer included) until the race ends. While you have a ranked attempt of the same "
            "deal in play (today's daily, a race), the analysis of any game of that deal is "
            "refused with `deal-in-play` (409)."
        ),
        responses={
            200: AnalysisSerializer,
            **errors(
                403,
                404,
                409,
                codes={
                    403: (visibility.RaceInProgress, visibility.DailyInProgress),
                    409: (DealInPlay,),
                },
            ),
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = get_object_or_404(Game.objects.defer("state"), pk=game_id)
        visibility.ensure_replayable(game, request.user)
        solver_help.ensure_help_allowed(request.user, game)
        return Response(jobs.report(game))


class DailyLineView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A solver's winning line of a closed day's deal, with the board after each move",
        description="Found on a task worker on the first ask (`pending` until then); 403 while "
        "the day runs.",
        parameters=[DAY_PARAMETER, RULE_PARAMETER],
        responses={200: DealLineSerializer, **errors(400, 403, 404)},
    )
    def get(self, request: Request, day: str) -> Response:
        deal = played_day(day, daily_rule(request))
        visibility.ensure_day_closed(deal.date, "line and its steps")
        line = deal_lines.for_closed_day(deal)
        engine = deals.new_game(GameCode.parse(str(daily.code_of(deal))))
        line["steps"] = deals.public_steps(engine, line["moves"])
        return Response(line)
