"""The player's writes to a game, as both doors take them: REST views and the game's websocket.

Each intent is one body spec (the serializer its REST endpoint parses) and one service
call, so a move sent over the socket is validated, versioned, deduplicated and refused
exactly as the same move posted to its endpoint: one table, no second copy of the path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from rest_framework.request import Request
from rest_framework.serializers import Serializer

from accounts.authentication import TokenGrant
from accounts.scopes import check_game_write
from api.serializers.games import CardIntentSerializer, MoveSerializer, VersionSerializer
from games import services
from games.models import Game

Play = Callable[[User, int, dict[str, Any]], services.Outcome]


@dataclass(frozen=True)
class Intent:
    spec: type[Serializer[Any]]
    play: Play

    def run(
        self, player: User, game_id: int, body: Any, scopes: frozenset[str] | None = None
    ) -> services.Outcome:
        """Parse `body` (a ValidationError when it does not fit), check the token may write to
        this game (`scopes`: its scopes; None for a signed-in session), call the service."""
        spec = self.spec(data=body)
        spec.is_valid(raise_exception=True)
        check_game_write(scopes, lambda: write_scope(game_id))
        return self.play(player, game_id, dict(spec.validated_data))


def write_scope(game_id: int) -> str:
    """The scope a token needs to write to the game: its kind's (`race:play` for a race
    game, `arena:play` for an arena game), else `game:play`."""
    origin: str | None = Game.objects.filter(pk=game_id).values_list("origin", flat=True).first()
    scopes = {Game.Origin.RACE.value: "race:play", Game.Origin.ARENA.value: "arena:play"}
    return scopes.get(origin or "", "game:play")


def granted(request: Request) -> frozenset[str] | None:
    """The scopes of the token a request came with; None for a signed-in session (all)."""
    grant = request.auth
    return grant.scopes if isinstance(grant, TokenGrant) else None


MOVE = Intent(
    MoveSerializer,
    lambda player, game_id, data: services.play_move(
        player, game_id, move=data["move"], version=data["version"]
    ),
)
TAP = Intent(
    CardIntentSerializer,
    lambda player, game_id, data: services.tap(
        player, game_id, card=data["card"], version=data["version"]
    ),
)
DOUBLE_CLICK = Intent(
    CardIntentSerializer,
    lambda player, game_id, data: services.double_click(
        player, game_id, card=data["card"], version=data["version"]
    ),
)
UNDO = Intent(
    VersionSerializer,
    lambda player, game_id, data: services.undo(player, game_id, version=data["version"]),
)
#: REST only (its answer carries the steps it played; docs/api.md): the socket takes the rest.
FINISH = Intent(
    VersionSerializer,
    lambda player, game_id, data: services.finish_game(player, game_id, version=data["version"]),
)
RESIGN = Intent(
    VersionSerializer,
    lambda player, game_id, data: services.resign(player, game_id, version=data["version"]),
)
