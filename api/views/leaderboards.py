"""Public leaderboards per rule: most wins, win rate, fastest, fewest moves, daily streak."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.docs import errors
from api.pagination import PAGE_PARAMETERS, page
from api.serializers.common import RuleQuerySerializer, validated
from api.serializers.leaderboards import BoardPageSerializer, BoardSerializer
from games import leaderboards
from games.models import Game
from ops.replica import reads_from_replica


def board_head(board: leaderboards.Board) -> dict[str, Any]:
    """What a board says of itself, in the request's language."""
    return {
        "title": str(board.title),
        "counts_assisted": board.counts_assisted,
        "min_games": board.min_games,
    }


class BoardListView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(summary="The leaderboards", responses={200: BoardSerializer(many=True)})
    @reads_from_replica
    def get(self, request: Request) -> Response:
        boards = leaderboards.BOARDS.values()
        return Response([{"name": board.name, **board_head(board)} for board in boards])


class BoardView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="One leaderboard for a rule, best first (score is shown, never ranked on)",
        parameters=[
            OpenApiParameter("board", enum=list(leaderboards.BOARDS), location="path"),
            OpenApiParameter("rule", enum=Game.Rule.values, required=False),
            *PAGE_PARAMETERS,
        ],
        responses={200: BoardPageSerializer, **errors(400, 404)},
    )
    @reads_from_replica
    def get(self, request: Request, board: str) -> Response:
        chosen = leaderboards.BOARDS.get(board)
        if chosen is None:
            raise NotFound(f"There is no leaderboard {board!r}.")
        rule = str(validated(RuleQuerySerializer, request.query_params)["rule"])
        rows = leaderboards.board_rows(chosen, rule)
        mine = leaderboards.own_row(rows, request.user, field="player")
        body: dict[str, Any] = {
            "board": chosen.name,
            **board_head(chosen),
            "rule": rule,
            **page(request, self, rows, leaderboards.board_entry),
            "me": leaderboards.board_entry(mine) if mine is not None else None,
        }
        return Response(body)
