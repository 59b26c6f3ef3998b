"""Arenas: the list, a player's own arena, an arena's state, joining, the seat's current
game, "without undo", the standings.

Views parse, call one service in `games.arenas.play`, and answer with the arena's public
form (`games.arenas.public`): never a deal code while the arena runs. Moves go through the
ordinary game endpoints and game socket (a token needs `arena:play` for them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import ARENA_READ
from api.docs import errors
from api.serializers.arenas import (
    ArenaListQuerySerializer,
    ArenaStateSerializer,
    JoinedSerializer,
    NewArenaSerializer,
    SeatGameSerializer,
    SeatGamesQuerySerializer,
    StandingsQuerySerializer,
    StandingsSerializer,
)
from api.serializers.common import validated
from api.serializers.games import GameStateSerializer
from games.arenas import play
from games.arenas.errors import (
    AlreadyJoined,
    AlreadyStarted,
    ArenaInProgress,
    ArenaNotFound,
    ArenaNotStarted,
    ArenaOver,
    BadStart,
    InAnotherArena,
    NotSeated,
    SequenceDone,
)
from games.errors import ServiceError
from games.odds.graded import NoGradedDeal
from games.public import game_state

if TYPE_CHECKING:
    from api.permissions import SignedInRequest


def _viewer(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


def _seat_errors(*conflicts: type[ServiceError]) -> dict[int, Any]:
    return errors(401, 403, 404, 409, codes={404: (ArenaNotFound,), 409: conflicts})


class ArenaListView(APIView):
    required_scope = {"GET": ARENA_READ, "POST": "arena:play"}

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else list(super().get_permissions())

    @extend_schema(
        summary="Public arenas: upcoming, running or finished",
        parameters=[OpenApiParameter("status", enum=["upcoming", "running", "finished"])],
        responses={200: ArenaStateSerializer(many=True), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        query = validated(ArenaListQuerySerializer, request.query_params)
        return Response(play.listing(query["status"], _viewer(request)))

    @extend_schema(
        summary="Create your own arena (public or private; never rated)",
        request=NewArenaSerializer,
        responses={
            201: ArenaStateSerializer,
            **errors(400, 401, 403, 413, 503, codes={400: (BadStart,), 503: (NoGradedDeal,)}),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(NewArenaSerializer, request.data)
        arena = play.create(
            request.user,
            rule=data["rule"],
            starts_at=data.get("starts_at"),
            minutes=data["minutes"],
            private=data["private"],
            name=data["name"],
        )
        return Response(play.describe(arena, request.user), status=status.HTTP_201_CREATED)


class ArenaDetailView(APIView):
    required_scope = ARENA_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="An arena's state (its codes once over)",
        responses={200: ArenaStateSerializer, **errors(403, 404, codes={404: (ArenaNotFound,)})},
    )
    def get(self, request: Request, arena: str) -> Response:
        return Response(play.describe(play.find(arena), _viewer(request)))


class JoinView(APIView):
    required_scope = "arena:play"

    @extend_schema(
        summary="Join an arena (any time before its end): a seat, and deal 1 once it runs",
        request=None,
        responses={201: JoinedSerializer, **_seat_errors(ArenaOver, AlreadyJoined, InAnotherArena)},
    )
    def post(self, request: SignedInRequest, arena: str) -> Response:
        found = play.find(arena)
        first = play.join(request.user, found)
        game = game_state(first) if first is not None else None
        answer = {"arena": play.describe(found, request.user), "game": game}
        return Response(answer, status=status.HTTP_201_CREATED)


class CurrentGameView(APIView):
    required_scope = "arena:play"

    @extend_schema(
        summary="Your game to play now (the next deal once the last one ended)",
        responses={
            200: GameStateSerializer,
            **_seat_errors(NotSeated, ArenaNotStarted, ArenaOver, SequenceDone),
        },
    )
    def get(self, request: SignedInRequest, arena: str) -> Response:
        return Response(game_state(play.current_game(request.user, play.find(arena))))


class WithoutUndoView(APIView):
    required_scope = "arena:play"

    @extend_schema(
        summary="Play your current game without undo (+1 on a win): before its first move",
        request=None,
        responses={
            200: GameStateSerializer,
            **_seat_errors(NotSeated, ArenaNotStarted, ArenaOver, SequenceDone, AlreadyStarted),
        },
    )
    def post(self, request: SignedInRequest, arena: str) -> Response:
        game = play.choose_without_undo(request.user, play.find(arena))
        return Response(game_state(game))


class SeatGamesView(APIView):
    required_scope = ARENA_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's games of the arena, with their points (yours any time; anyone's "
        "once it is over: replays and analyses)",
        parameters=[OpenApiParameter("player", str, required=True)],
        responses={
            200: SeatGameSerializer(many=True),
            **errors(
                400,
                403,
                404,
                409,
                codes={403: (ArenaInProgress,), 404: (ArenaNotFound,), 409: (NotSeated,)},
            ),
        },
    )
    def get(self, request: Request, arena: str) -> Response:
        query = validated(SeatGamesQuerySerializer, request.query_params)
        return Response(play.games_of(play.find(arena), query["player"], _viewer(request)))


class StandingsView(APIView):
    required_scope = ARENA_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Standings: a page of the table (1: the top 10), your rank and neighbours",
        parameters=[OpenApiParameter("page", int, required=False)],
        responses={
            200: StandingsSerializer,
            **errors(400, 403, 404, codes={404: (ArenaNotFound,)}),
        },
    )
    def get(self, request: Request, arena: str) -> Response:
        query = validated(StandingsQuerySerializer, request.query_params)
        return Response(play.standings_for(play.find(arena), _viewer(request), query["page"]))
