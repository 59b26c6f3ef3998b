"""Solver-backed assists: a hint and the winnability status of the owner's game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api import serializers as s
from api.docs import errors
from api.throttles import MoveThrottle
from games import hints

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

NOTE = (
    "The solver reads the face-down cards, so asking marks the game as assisted "
    "(assisted games are ranked apart). `status` is winnable, no-longer-winnable, or unknown "
    "when the search ran out of time (`reason`)."
)


class HintView(APIView):
    required_scope = "game:play"
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Hint: the next move of a winning line from the current position",
        description=NOTE,
        request=None,
        responses={200: s.HintSerializer, **errors(401, 403, 404, 409, 429, game=True)},
        examples=[
            OpenApiExample(
                "a hint",
                value={
                    "version": 7,
                    "status": "winnable",
                    "reason": None,
                    "nodes": 812,
                    "seconds": 0.041,
                    "move": "AS>F",
                },
                response_only=True,
            )
        ],
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return Response(hints.ask(request.user, game_id, "hint").to_dict())


class WinnabilityView(APIView):
    required_scope = "game:play"
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Can this game still be won?",
        description=NOTE,
        request=None,
        responses={200: s.WinnabilitySerializer, **errors(401, 403, 404, 409, 429, game=True)},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return Response(hints.ask(request.user, game_id, "winnability").to_dict())
