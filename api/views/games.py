"""Games: create, list, read (public), move, tap, double click, undo, finish, resign, log;
the clock's park and resume.

Views parse with a serializer, call one service, and answer with the public
state; every rule decision is the engine's, every write the service's. The
writes (move, tap, double click, undo, finish, resign) go through `api.intents`,
the table the game's websocket plays from too (all but finish).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import GAME_WRITE, RACE_READ, check_game_write
from api import intents
from api.docs import STATE_EXAMPLE, errors
from api.intents import granted
from api.pagination import PAGE_PARAMETERS, page, page_of
from api.serializers.common import validated
from api.serializers.daily import ReplaySerializer
from api.serializers.games import (
    CardIntentSerializer,
    FinishSerializer,
    GameListQuerySerializer,
    GameStateSerializer,
    GameSummarySerializer,
    LogEntrySerializer,
    MoveSerializer,
    NewGameSerializer,
    RetrySerializer,
    VersionSerializer,
    ViewedStateSerializer,
)
from api.throttles import MoveThrottle
from games import deals, services
from games.engine import GameCode
from games.errors import (
    CardsFaceDown,
    FinishBlocked,
    GameFinished,
    GameNotFinished,
    NoSuchVersion,
    NothingLeftToPlay,
)
from games.fairness import visibility
from games.fairness.dealing import RankedAttemptPending
from games.help_offer import viewed_state
from games.models import Game
from games.odds.graded import NoGradedDeal
from games.public import game_state, game_summary

if TYPE_CHECKING:
    from api.permissions import SignedInRequest

WRITE_ERRORS = errors(400, 401, 403, 404, 409, 413, 422, 429, game=True)


def _answer(outcome: services.Outcome) -> Response:
    return Response(outcome.state)


class GameListView(APIView):
    required_scope = {"GET": "game:read", "POST": "game:play"}

    @extend_schema(
        summary="My games, newest first",
        operation_id="v1_games_list",
        parameters=[
            OpenApiParameter("status", enum=["active", "won", "abandoned"], required=False),
            *PAGE_PARAMETERS,
        ],
        responses={200: page_of(GameSummarySerializer), **errors(400, 401)},
    )
    def get(self, request: SignedInRequest) -> Response:
        query = validated(GameListQuerySerializer, request.query_params)
        games = Game.objects.filter(owner=request.user).select_related("owner")
        if "status" in query:
            games = games.filter(status=query["status"])
        return Response(page(request, self, games.defer("state"), game_summary))

    @extend_schema(
        summary="Start a game (random deal, a proven-winnable one of a difficulty, or a code)",
        request=NewGameSerializer,
        responses={
            201: GameStateSerializer,
            **errors(
                400,
                401,
                403,
                409,
                413,
                503,
                codes={409: [RankedAttemptPending], 503: [NoGradedDeal]},
            ),
        },
        examples=[
            STATE_EXAMPLE,
            OpenApiExample("random Classic", value={"rule": "C"}, request_only=True),
            OpenApiExample("from a code", value={"code": "YU1-C-AAAAAAB"}, request_only=True),
            OpenApiExample(
                "in place of an untouched game",
                value={"rule": "C", "replaces": 12},
                request_only=True,
            ),
            OpenApiExample(
                "an easy Alaska deal", value={"rule": "A", "difficulty": "easy"}, request_only=True
            ),
        ],
    )
    def post(self, request: SignedInRequest) -> Response:
        data = validated(NewGameSerializer, request.data)
        game = services.start_game(
            request.user,
            code=data.get("code"),
            rule=data.get("rule"),
            replaces=data.get("replaces"),
            difficulty=data.get("difficulty"),
        )
        return Response(game_state(game), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    required_scope = RACE_READ
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A game's public state (anyone may watch; face-down cards stay hidden)",
        description="Someone else's daily game is hidden (403) until its UTC day closes.",
        responses={200: ViewedStateSerializer, **errors(403, 404, game=True)},
        examples=[STATE_EXAMPLE],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = visibility.watchable_game(game_id, request.user)
        return Response(viewed_state(game, request.user))


class GameLogView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A game's move log, oldest first",
        description="Someone else's daily game is hidden (403) until its UTC day closes; a "
        "race game's log, to everybody (its racer included) until the race ends.",
        responses={200: LogEntrySerializer(many=True), **errors(403, 404, game=True)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = visibility.watchable_game(game_id, request.user)
        visibility.ensure_replayable(game, request.user)
        entries = [
            {
                "seq": entry.seq,
                "version": entry.version,
                "move": entry.text,
                "kind": entry.kind,
                "intent": entry.intent,
                "score_after": entry.score_after,
                "at": entry.created_at,
            }
            for entry in game.log.all()
        ]
        return Response(entries)


class MoveView(APIView):
    required_scope = GAME_WRITE
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Play a move",
        request=MoveSerializer,
        responses={200: GameStateSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample("to column 3", value={"move": "10D>3", "version": 7}, request_only=True),
            OpenApiExample(
                "to its foundation", value={"move": "AS>F", "version": 8}, request_only=True
            ),
        ],
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(intents.MOVE.run(request.user, game_id, request.data, granted(request)))


class TapView(APIView):
    required_scope = GAME_WRITE
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Tap the last card of a column: it goes to its foundation if it can",
        request=CardIntentSerializer,
        responses={200: GameStateSerializer, **WRITE_ERRORS},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(intents.TAP.run(request.user, game_id, request.data, granted(request)))


class DoubleClickView(APIView):
    required_scope = GAME_WRITE
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Double click a card: the server picks a column for it and what lies on it",
        request=CardIntentSerializer,
        responses={200: GameStateSerializer, **WRITE_ERRORS},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(
            intents.DOUBLE_CLICK.run(request.user, game_id, request.data, granted(request))
        )


class UndoView(APIView):
    required_scope = GAME_WRITE
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Undo the last move (up to 100)",
        request=VersionSerializer,
        responses={200: GameStateSerializer, **WRITE_ERRORS},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(intents.UNDO.run(request.user, game_id, request.data, granted(request)))


class FinishView(APIView):
    required_scope = GAME_WRITE
    throttle_classes = [MoveThrottle]

    @extend_schema(
        summary="Finish: once every card is face up, play the rest home",
        description="The server finds the moves with the engine (the state's `can_finish` says "
        "when it may) and plays them one by one, each a log entry of its own (intent "
        "`finish`), scored as if played by hand. The answer: the game after them and the "
        "public board after each.",
        request=VersionSerializer,
        responses={
            200: FinishSerializer,
            **errors(
                400,
                401,
                403,
                404,
                409,
                413,
                429,
                game=True,
                codes={409: (CardsFaceDown, FinishBlocked, GameFinished)},
            ),
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        outcome = intents.FINISH.run(request.user, game_id, request.data, granted(request))
        return Response({"state": outcome.state, "steps": services.finish_steps(outcome.game)})


class ClockView(APIView):
    """Park and resume: where the player is tells the clock (games.clock); no move, no version."""

    running: bool

    def post(self, request: SignedInRequest, game_id: int) -> Response:
        check_game_write(granted(request), lambda: intents.write_scope(game_id))
        change = services.resume if self.running else services.park
        return Response(change(request.user, game_id))


class ResumeView(ClockView):
    required_scope = GAME_WRITE
    running = True

    @extend_schema(
        summary="Resume: the player is at the table, so the game's clock runs",
        description="Send it when the table opens or comes back in sight, and again at least "
        "every 3 minutes while it stays there: a longer gap between a game's moves and resumes "
        "counts as 3 minutes. Before the first move the clock stands still. No version, no "
        "log entry; answers the state.",
        request=None,
        responses={200: GameStateSerializer, **errors(401, 403, 404, 429, game=True)},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return super().post(request, game_id)


class ParkView(ClockView):
    required_scope = GAME_WRITE
    running = False

    @extend_schema(
        summary="Park: the player left the table, so the game's clock stops",
        description="Send it when the table is closed, hidden or kept for later; the next move "
        "or resume starts the clock again. No version, no log entry; answers the state.",
        request=None,
        responses={200: GameStateSerializer, **errors(401, 403, 404, 429, game=True)},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return super().post(request, game_id)


class ResignView(APIView):
    required_scope = GAME_WRITE

    @extend_schema(
        summary="Resign: give up the game (it ends `abandoned`)",
        request=VersionSerializer,
        responses={200: GameStateSerializer, **errors(400, 401, 403, 404, 409, 413, game=True)},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return _answer(intents.RESIGN.run(request.user, game_id, request.data, granted(request)))


class AbandonView(ResignView):
    """The first name of resigning, kept for the clients written against it."""

    required_scope = GAME_WRITE

    @extend_schema(
        summary="Resign (the old name of POST /games/{game_id}/resign)",
        deprecated=True,
        request=VersionSerializer,
        responses={200: GameStateSerializer, **errors(400, 401, 403, 404, 409, 413, game=True)},
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        return super().post(request, game_id)


class GameReplayView(APIView):
    required_scope = "game:read"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Replay a game: the public board before its first log entry and after each",
        description="Open as its log is: someone else's daily game once its UTC day closes, a "
        "race game once its race ends (for its racer too); never a face-down card.",
        responses={200: ReplaySerializer, **errors(403, 404, game=True)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = visibility.watchable_game(game_id, request.user)
        visibility.ensure_replayable(game, request.user)
        texts = list(game.log.order_by("seq").values_list("text", flat=True))
        steps = deals.public_steps(deals.new_game(GameCode.parse(game.code)), texts)
        return Response({"game": game_summary(game), "steps": steps})


class RetryView(APIView):
    required_scope = "game:play"

    @extend_schema(
        summary="Retry from here: a practice game from a position of your finished game",
        description="The same deal and the log up to `version`; unranked and assisted (hints "
        "are open to it as to any practice game), `origin` `retry`: its result counts for no "
        "board, streak or record. Refused from a position with no move left, and for today's "
        "daily deal until your ranked attempt of it has ended (docs/fair-play.md).",
        request=RetrySerializer,
        responses={
            201: GameStateSerializer,
            **errors(
                400,
                401,
                403,
                404,
                409,
                413,
                game=True,
                codes={
                    400: (NoSuchVersion,),
                    409: (GameNotFinished, NothingLeftToPlay, RankedAttemptPending),
                },
            ),
        },
    )
    def post(self, request: SignedInRequest, game_id: int) -> Response:
        version = validated(RetrySerializer, request.data)["version"]
        retry = services.retry_from(request.user, game_id, version)
        return Response(game_state(retry), status=status.HTTP_201_CREATED)
