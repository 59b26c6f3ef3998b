"""Puzzles: today's puzzle, your next one, a puzzle, and answering it (docs/puzzles.md).

A puzzle shows what a player would see: the public board (face-down cards counted, never
named) and its legal moves; its answer only once you have answered it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.docs import errors
from api.serializers.common import validated
from api.serializers.puzzles import (
    AttemptAnswerSerializer,
    AttemptSerializer,
    DailyPuzzleSerializer,
    NextPuzzleSerializer,
    PuzzleDetailSerializer,
)
from games import days
from games.puzzles import attempts, daily, deck
from games.puzzles.errors import NoDailyPuzzle, PuzzleNotFound, TooManyMoves
from games.puzzles.public import me_view, puzzle_view, visible_puzzle

if TYPE_CHECKING:
    from api.permissions import SignedInRequest


class DailyPuzzleView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="puzzles_daily",
        summary="Today's puzzle (UTC), the same for everybody",
        description=(
            "Chosen on the day's first ask from the public puzzles (mined from the server's "
            "self-play, with 3 plausible moves or more), and kept for the day. `me` is your "
            "standing (null when signed out)."
        ),
        responses={
            200: DailyPuzzleSerializer,
            **errors(404, codes={404: (NoDailyPuzzle,)}),
        },
    )
    def get(self, request: Request) -> Response:
        today = days.today()
        puzzle = daily.puzzle_of(today)
        return Response(
            {
                "date": today.isoformat(),
                "puzzle": puzzle_view(puzzle, request.user),
                "me": me_view(request.user),
            }
        )


class NextPuzzleView(APIView):
    required_scope = "game:read"

    @extend_schema(
        operation_id="puzzles_next",
        summary="Your next puzzle: a due card of your deck, else a new one near your rating",
        description=(
            "Your own turning points come first among the due cards. `puzzle` is null when "
            "nothing is due and you have tried every puzzle there is (`me.next_due_at` says "
            "when a card comes back)."
        ),
        responses={200: NextPuzzleSerializer, **errors(401)},
    )
    def get(self, request: SignedInRequest) -> Response:
        puzzle, reason = deck.next_for(request.user, daily.stored_puzzle_id(days.today()))
        return Response(
            {
                "puzzle": puzzle_view(puzzle, request.user) if puzzle is not None else None,
                "reason": reason,
                "me": me_view(request.user),
            }
        )


class PuzzleDetailView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="puzzles_read",
        summary="A puzzle: its board and legal moves (and its answer once you answered it)",
        responses={
            200: PuzzleDetailSerializer,
            **errors(404, codes={404: (PuzzleNotFound,)}),
        },
    )
    def get(self, request: Request, puzzle_id: int) -> Response:
        puzzle = visible_puzzle(puzzle_id, request.user)
        return Response({"puzzle": puzzle_view(puzzle, request.user), "me": me_view(request.user)})


class AttemptView(APIView):
    required_scope = "game:play"

    @extend_schema(
        operation_id="puzzles_attempt",
        summary="Answer a puzzle: the server checks your moves",
        description=(
            "Send your answer so far, from the puzzle's position, whole each time. A wrong "
            "move is an answer, not an error: 200 with `outcome` `wrong-move` (and the "
            "solution). An illegal move is refused as in a game (422, `code` names the rule). "
            "Your first decided attempt at a public puzzle (solved or missed) is rated; a "
            "guest's answers, and answers to your own games' puzzles, are practice."
        ),
        request=AttemptSerializer,
        responses={
            200: AttemptAnswerSerializer,
            **errors(
                400,
                401,
                403,
                404,
                422,
                429,
                codes={400: (TooManyMoves,), 404: (PuzzleNotFound,)},
            ),
        },
        examples=[
            OpenApiExample("one move", value={"moves": ["7D>3"]}, request_only=True),
            OpenApiExample(
                "a wrong move",
                value={
                    "outcome": "wrong-move",
                    "correct": False,
                    "message": "That move loses: after it the game can no longer be won.",
                    "step": 0,
                    "moves_to_find": 1,
                    "board": None,
                    "solution": ["KH>2"],
                    "rated": True,
                    "rating_before": 0.0,
                    "rating_after": -1.45,
                    "puzzle_rating": 7.02,
                    "streak": 0,
                    "daily_streak": 0,
                    "card": {"box": 1, "due_at": "2026-12-02T09:00:00+00:00", "own": False},
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request: SignedInRequest, puzzle_id: int) -> Response:
        body = validated(AttemptSerializer, request.data)
        answer = attempts.attempt(request.user, puzzle_id, body["moves"])
        return Response(answer.to_dict())
