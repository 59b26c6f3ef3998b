"""Live races: the lobby, rooms (create, join, ready, start, leave, rematch), quick match,
the race leaderboard and a player's races.

Views parse, call one service in `games.races`, and answer with the race's public
state (`games.races.public`): counts and states for each racer, never a card, and
the deal code only once the race is over. Racers play their race game through the
ordinary game endpoints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import RACE_READ
from api.docs import errors
from api.serializers.common import RuleQuerySerializer, validated
from api.serializers.races import (
    RULE_CHOICES,
    NewRaceSerializer,
    PlayerRacesSerializer,
    QueueRequestSerializer,
    QueueStatusSerializer,
    RaceStateSerializer,
    RatingRowSerializer,
)
from api.views.players import _player, replica_unless_own
from games.errors import RuleMismatch, ServiceError
from games.fairness.dealing import RankedAttemptPending
from games.races import queue, rooms, standings
from games.races.errors import (
    AlreadyRacing,
    AlreadyReady,
    CodeNeedsPrivateRoom,
    NotARacer,
    NotRaceCreator,
    RaceCountingDown,
    RaceFull,
    RaceNotFound,
    RaceNotOver,
    RaceRunning,
    RaceStarted,
    TooFewRacers,
)
from ops.replica import reads_from_replica

if TYPE_CHECKING:
    from api.permissions import SignedInRequest


# ---- shapes ---------------------------------------------------------------------------------


def _viewer(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


def _action_errors(
    forbidden: tuple[type[ServiceError], ...], conflicts: tuple[type[ServiceError], ...]
) -> dict[int, Any]:
    """A room action's error responses, each status listing the refusals the action makes."""
    return errors(
        400,
        401,
        403,
        404,
        409,
        413,
        codes={403: forbidden, 404: (RaceNotFound,), 409: conflicts},
    )


# ---- views ----------------------------------------------------------------------------------


class RaceListView(APIView):
    required_scope = {"GET": RACE_READ, "POST": "race:play"}

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else list(super().get_permissions())

    @extend_schema(
        summary="The lobby: open public rooms, newest first",
        responses={200: RaceStateSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(rooms.open_rooms())

    @extend_schema(
        summary="Create a race room (you take the first seat)",
        description=(
            "A random deal of the rule, or (private rooms only) a chosen code. Share the room "
            "code or the link /races/<room>; 2 to 8 players, guests welcome (unrated)."
        ),
        request=NewRaceSerializer,
        responses={
            201: RaceStateSerializer,
            **errors(
                400,
                401,
                403,
                409,
                413,
                codes={
                    400: (CodeNeedsPrivateRoom, RuleMismatch),
                    409: (AlreadyRacing, RankedAttemptPending),
                },
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(NewRaceSerializer, request.data)
        race = rooms.create(request.user, **data)
        return Response(race.to_dict(), status=status.HTTP_201_CREATED)


class RaceDetailView(APIView):
    required_scope = RACE_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A race's state: each racer's progress (counts only), yours with your game",
        responses={200: RaceStateSerializer, **errors(403, 404, codes={404: (RaceNotFound,)})},
    )
    def get(self, request: Request, room: str) -> Response:
        return Response(rooms.read(room, _viewer(request)).to_dict())


def _action[View: Callable[..., Response]](
    summary: str,
    description: str = "",
    *,
    forbidden: tuple[type[ServiceError], ...] = (NotARacer,),
    conflicts: tuple[type[ServiceError], ...],
) -> Callable[[View], View]:
    return extend_schema(
        summary=summary,
        description=description,
        request=None,
        responses={200: RaceStateSerializer, **_action_errors(forbidden, conflicts)},
    )


class JoinView(APIView):
    required_scope = "race:play"

    @_action(
        "Join a room (by its room code)",
        "Refused once the countdown began (race-started).",
        forbidden=(),
        conflicts=(AlreadyRacing, RaceStarted, RaceFull, RankedAttemptPending),
    )
    def post(self, request: SignedInRequest, room: str) -> Response:
        return Response(rooms.join(request.user, room).to_dict())


class ReadyView(APIView):
    required_scope = "race:play"

    @_action(
        "Mark yourself ready",
        "The countdown starts when every racer (two at least) is.",
        conflicts=(RaceStarted, AlreadyReady),
    )
    def post(self, request: SignedInRequest, room: str) -> Response:
        return Response(rooms.ready(request.user, room).to_dict())


class StartView(APIView):
    required_scope = "race:play"

    @_action(
        "Start the countdown (the creator; two racers at least)",
        forbidden=(NotARacer, NotRaceCreator),
        conflicts=(RaceStarted, TooFewRacers),
    )
    def post(self, request: SignedInRequest, room: str) -> Response:
        return Response(rooms.start(request.user, room).to_dict())


class LeaveView(APIView):
    required_scope = "race:play"

    @_action(
        "Leave a room that has not started",
        "Refused during the countdown (race-counting-down) and the race (race-running: resign "
        "your game instead).",
        conflicts=(RaceCountingDown, RaceRunning),
    )
    def post(self, request: SignedInRequest, room: str) -> Response:
        return Response(rooms.leave(request.user, room).to_dict())


class RematchView(APIView):
    required_scope = "race:play"

    @_action(
        "Rematch: the same room's players, a new deal",
        "The first racer to ask opens the rematch room; the others join it. Each is ready at "
        "once; it starts when no previous racer still at the race's end (its race socket open) "
        "is left to join, after 30 s at most (`waiting_for` names them), or when its creator "
        "starts it.",
        conflicts=(RaceNotOver, AlreadyRacing, RaceStarted, RaceFull, RankedAttemptPending),
    )
    def post(self, request: SignedInRequest, room: str) -> Response:
        return Response(rooms.rematch(request.user, room).to_dict())


class QueueView(APIView):
    required_scope = {"GET": RACE_READ, "POST": "race:play", "DELETE": "race:play"}

    @extend_schema(
        summary="Your quick match status (matching is checked on every read)",
        responses={200: QueueStatusSerializer, **errors(401)},
    )
    def get(self, request: SignedInRequest) -> Response:
        return Response(queue.status(request.user))

    @extend_schema(
        summary="Wait for a quick match under a rule",
        description="Two waiting players race after a few seconds; four at once.",
        request=QueueRequestSerializer,
        responses={
            200: QueueStatusSerializer,
            **errors(400, 401, 403, 409, 413, codes={409: (AlreadyRacing,)}),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(QueueRequestSerializer, request.data)
        return Response(queue.enter(request.user, data["rule"]))

    @extend_schema(summary="Stop waiting for a quick match", responses={204: None, **errors(401)})
    def delete(self, request: SignedInRequest) -> Response:
        queue.cancel(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RaceLeaderboardView(APIView):
    required_scope = RACE_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Race ratings under a rule (openskill Plackett-Luce; registered players only)",
        parameters=[OpenApiParameter("rule", enum=RULE_CHOICES, required=False)],
        responses={200: RatingRowSerializer(many=True), **errors(400)},
    )
    @reads_from_replica
    def get(self, request: Request) -> Response:
        rule = validated(RuleQuerySerializer, request.query_params)["rule"]
        return Response(standings.leaderboard(rule))


class PlayerRacesView(APIView):
    required_scope = RACE_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's race ratings per rule and latest races",
        responses={200: PlayerRacesSerializer, **errors(404)},
    )
    def get(self, request: Request, username: str) -> Response:
        with replica_unless_own(request, username):
            return Response(standings.player_races(_player(username, request.user)))  # type: ignore[arg-type]
