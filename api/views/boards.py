"""The analysis board: open a position a viewer may see, try moves, read every move's verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api.docs import errors
from api.serializers.boards import (
    BoardFromGameSerializer,
    BoardMoveSerializer,
    BoardPositionSerializer,
    BoardVerdictsSerializer,
)
from api.serializers.common import validated
from api.throttles import MoveThrottle
from games.analysis import board
from games.analysis.board import PositionNotFound, PuzzleNotSolved
from games.analysis.models import BoardPosition
from games.errors import GameNotFinished, NoSuchVersion, NotYourGame
from games.fairness import visibility
from games.fairness.boards import BoardDealInPlay
from games.fairness.solver_help import DealInPlay
from games.puzzles.errors import PuzzleNotFound

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

SECRECY = (
    "No board opens, and no position of one is shown, while its deal is played for a ranking "
    "(today's daily deal, a running race): `board-deal-in-play` (409), asked again at every read."
)
POSITION_ERRORS = errors(
    401, 403, 404, 409, 429, codes={403: (PuzzleNotSolved,), 404: (PositionNotFound,),
                                    409: (BoardDealInPlay,)}
)  # fmt: skip


def _opened(row: BoardPosition) -> Response:
    return Response(board.view(row), status=status.HTTP_201_CREATED)


class BoardFromGameView(APIView):
    required_scope = "game:read"

    @extend_schema(
        summary="Open an analysis board at a step of a game",
        description="A step of a finished game you may replay, or of your own practice game "
        "(one that counts for nothing: a retry, daily practice) still in play. No game is "
        "created. " + SECRECY,
        request=BoardFromGameSerializer,
        responses={
            201: BoardPositionSerializer,
            **errors(
                400, 401, 403, 404, 409, 429,
                game=True,
                codes={
                    400: (NoSuchVersion,),
                    403: (NotYourGame, visibility.RaceInProgress, visibility.DailyInProgress),
                    409: (BoardDealInPlay, DealInPlay, GameNotFinished),
                },
            ),
        },
    )  # fmt: skip
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        version = validated(BoardFromGameSerializer, request.data)["version"]
        return _opened(board.open_from_game(request.user, game_id, version))


class BoardFromPuzzleView(APIView):
    required_scope = "game:read"

    @extend_schema(
        summary="Open an analysis board on a puzzle you have solved",
        description="The board judges every move, so it tells the answer: it opens once "
        "you have solved the puzzle (`puzzle-not-solved`, 403, before). " + SECRECY,
        request=None,
        responses={
            201: BoardPositionSerializer,
            **errors(
                401, 403, 404, 409, 429,
                codes={403: (PuzzleNotSolved,), 404: (PuzzleNotFound,), 409: (BoardDealInPlay,)},
            ),
        },
    )  # fmt: skip
    def post(self, request: SignedInRequest, puzzle_id: int) -> Response:
        return _opened(board.open_from_puzzle(request.user, puzzle_id))


class BoardPositionView(APIView):
    """A shared link shows the position to anyone, signed in or not."""

    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A board position as the table draws it, with its legal moves",
        description="Face-down cards are counted, never named. " + SECRECY,
        responses={200: BoardPositionSerializer, **POSITION_ERRORS},
    )
    def get(self, request: Request, key: str) -> Response:
        return Response(board.view(board.position(request.user, key)))


class BoardMovesView(APIView):
    """Anyone may read the verdicts (a shared link); playing a move needs a player."""

    required_scope = "game:read"

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "POST":
            return [IsAuthenticated()]
        return [AllowAny()]

    def get_throttles(self) -> list[BaseThrottle]:
        """Moves on the board are played as fast as moves in a game."""
        return [MoveThrottle()] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(
        summary="Every legal move of a board position, judged: keeps the win, loses it, unknown",
        description="The first ask queues the judging on the task workers (once per position, "
        "for every viewer after); `status` is `pending` until every move is judged: poll "
        "(docs/api.md suggests once a second). `line` is a winning line from the position "
        "once one is found. " + SECRECY,
        responses={200: BoardVerdictsSerializer, **POSITION_ERRORS},
    )
    def get(self, request: Request, key: str) -> Response:
        return Response(board.verdicts(request.user, key).to_dict())

    @extend_schema(
        summary="Play a move on the board: the child position (no game is created)",
        description="Refused as the rules refuse it (400 bad notation, 422 an illegal move). "
        "Undo is going back to the position you came from (its key). " + SECRECY,
        request=BoardMoveSerializer,
        responses={
            201: BoardPositionSerializer,
            **errors(
                400, 401, 403, 404, 409, 422, 429,
                game=True,
                codes={403: (PuzzleNotSolved,), 404: (PositionNotFound,),
                       409: (BoardDealInPlay,)},
            ),
        },
    )  # fmt: skip
    def post(self, request: SignedInRequest, key: str) -> Response:
        move = validated(BoardMoveSerializer, request.data)["move"]
        return _opened(board.play(request.user, key, move))
