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
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.docs import errors
from api.pagination import PAGE_PARAMETERS, page
from games import daily, days, deals, leaderboards, services, visibility
from games.engine import Game as EngineGame
from games.engine import GameCode, Rule
from games.models import Game
from games.public import game_state, game_summary
from ops.replica import reads_from_replica

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

# ---- response shapes (schema documentation) -------------------------------------------------


class DailyAttemptSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Game.Status.values)


class DailyTodaySerializer(serializers.Serializer[Any]):
    date = serializers.DateField()
    rule = serializers.ChoiceField(choices=Game.Rule.values, help_text="The daily's rule letter.")
    code = serializers.CharField(allow_null=True, help_text="Always null: the day is running.")
    players = serializers.IntegerField(
        help_text="Ranked attempts so far, with hints or without (both rankings together)."
    )
    ranked_game = serializers.IntegerField(
        allow_null=True, help_text="Your ranked game today (null if signed out or not started)."
    )
    attempts = DailyAttemptSerializer(many=True, help_text="Your games on today's deal.")


class DailyEntrySerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Shared by ties: 1, 2, 2, 4.")
    player = serializers.CharField()
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    won = serializers.BooleanField()
    moves = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField(help_text="Server clock, first to last move.")
    cards_on_foundations = serializers.IntegerField()
    score = serializers.IntegerField(help_text="Shown, never a ranking key.")
    assisted = serializers.BooleanField()
    finished_at = serializers.DateTimeField(allow_null=True)


class DailySectionsSerializer(serializers.Serializer[Any]):
    without_hints = serializers.IntegerField(help_text="Ranked games played without assists.")
    with_hints = serializers.IntegerField(help_text="Ranked games played with hints or checks.")


class DailyRankingSerializer(serializers.Serializer[Any]):
    date = serializers.DateField()
    rule = serializers.ChoiceField(choices=Game.Rule.values, help_text="The daily's rule letter.")
    open = serializers.BooleanField(help_text="The day is still running (its code is hidden).")
    code = serializers.CharField(allow_null=True)
    assisted = serializers.BooleanField(help_text="This is the ranking of assisted games.")
    sections = DailySectionsSerializer(
        help_text="Ranked games in each of the day's two rankings (they add up to `players`)."
    )
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DailyEntrySerializer(many=True)
    me = DailyEntrySerializer(allow_null=True, help_text="Your row, wherever it ranks.")


class ReplayStepSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="0 is the deal; then one step per log entry.")
    move = serializers.CharField(allow_null=True, help_text="The log entry, or 'undo'.")
    columns = s.ColumnSerializer(many=True)
    foundations = s.FoundationSerializer(many=True)
    score = serializers.IntegerField()
    move_count = serializers.IntegerField()


class ReplaySerializer(serializers.Serializer[Any]):
    game = s.GameSummarySerializer()
    steps = ReplayStepSerializer(many=True)


class DayQuerySerializer(s.RuleQuerySerializer):
    assisted = serializers.BooleanField(required=False, default=False)


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
    return Rule.from_letter(s.validated(s.RuleQuerySerializer, request.query_params)["rule"])


def played_day(text: str, rule: Rule) -> daily.DayDeal:
    """A day that has a deal under `rule`: today (chosen on demand) or a past day."""
    day = days.parse_day(text)
    days.ensure_come(day)
    if day == days.today():
        return daily.deal_for(day, rule=rule)
    deal = daily.stored_deal(day, rule) if day < days.today() else None
    if deal is None:
        raise NotFound(f"There is no {rule.name} daily deal for {day}.")
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
        mine = (
            daily.attempts(request.user, deal.date, rule) if request.user.is_authenticated else []
        )
        ranked = next((game.pk for game in mine if game.ranked), None)
        return Response(
            {
                "date": deal.date.isoformat(),
                "rule": rule.letter,
                "code": visibility.revealed_code(deal),
                "players": Game.objects.filter(
                    daily_date=deal.date, rule=rule.letter, ranked=True
                ).count(),
                "ranked_game": ranked,
                "attempts": [
                    {"game": game.pk, "ranked": game.ranked, "status": game.status} for game in mine
                ],
            }
        )


class DailyPlayView(APIView):
    required_scope = "game:play"

    @extend_schema(
        summary="Start an attempt at today's deal: the first is ranked, later ones are practice",
        parameters=[RULE_PARAMETER],
        request=None,
        responses={201: s.GameStateSerializer, **errors(400, 401, 503)},
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
        spec = s.validated(DayQuerySerializer, request.query_params)
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
        if days.is_open(deal.date):
            raise visibility.DailyInProgress(
                f"The daily deal of {deal.date} is still running; replays open when it closes."
            )
        texts = list(game.log.order_by("seq").values_list("text", flat=True))
        steps = replay_steps(deals.new_game(GameCode.parse(game.code)), texts)
        return Response({"game": game_summary(game), "steps": steps})


def replay_steps(engine: EngineGame, texts: list[str]) -> list[dict[str, Any]]:
    """The public board before the first entry and after each (seq 1, 2, ... as in a log)."""
    steps = [_step(0, None, engine)]
    for seq, step in enumerate(deals.replay_steps(engine, texts), start=1):
        steps.append(_step(seq, step.text, step.engine))
    return steps


def _step(seq: int, move: str | None, engine: EngineGame) -> dict[str, Any]:
    board = engine.to_public()
    return {
        "seq": seq,
        "move": move,
        "columns": board["columns"],
        "foundations": board["foundations"],
        "score": engine.score,
        "move_count": engine.move_count,
    }
