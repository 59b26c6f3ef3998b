"""Solver-backed assists: a hint and the winnability status of the owner's game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api.docs import errors
from api.serializers.assists import AssistPendingSerializer, HintSerializer, WinnabilitySerializer
from api.throttles import MoveThrottle
from games import hints
from games.daily import DailyClosed
from games.errors import GameFinished, NotYourGame
from games.fairness.solver_help import DealInPlay
from games.races.errors import NoAssistsInRaces

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

NOTE = (
    "The solver reads the face-down cards, so asking marks the game as assisted "
    "(assisted games are ranked apart). `status` is winnable, no-longer-winnable, or unknown "
    "when the search ran out of time (`reason`). The request never waits for the solver: "
    "200 answers at once from the winning line kept for the game (while the player keeps to "
    "it), 202 `pending` says the solve is queued and its answer comes as a `hint` (or "
    "`winnability`) message on the game's feed, to the owner's sockets only."
)


ASSIST_ERRORS = errors(
    401,
    403,
    404,
    409,
    429,
    game=True,
    codes={
        403: (NotYourGame, NoAssistsInRaces),
        409: (DealInPlay, GameFinished, DailyClosed),
    },
)


def _answer(answer: hints.Answer | hints.Pending) -> Response:
    code = 202 if isinstance(answer, hints.Pending) else 200
    return Response(answer.to_dict(), status=code)


class HintView(APIView):
    required_scope = "game:play"
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Hint: the next move of a winning line from the current position",
        description=NOTE,
        request=None,
        responses={
            200: HintSerializer,
            202: AssistPendingSerializer,
            **ASSIST_ERRORS,
        },
        examples=[
            OpenApiExample(
                "a hint",
                value={
                    "version": 7,
                    "status": "winnable",
                    "reason": None,
                    "nodes": 0,
                    "seconds": 0.0,
                    "move": "AS>F",
                },
                response_only=True,
            )
        ],
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(hints.ask(request.user, game_id, "hint"))


class WinnabilityView(APIView):
    required_scope = "game:play"
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Can this game still be won?",
        description=NOTE,
        request=None,
        responses={
            200: WinnabilitySerializer,
            202: AssistPendingSerializer,
            **ASSIST_ERRORS,
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(hints.ask(request.user, game_id, "winnability"))
