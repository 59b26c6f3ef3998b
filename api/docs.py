"""Schema helpers: the error responses each endpoint documents, with examples."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from api.serializers.common import ErrorSerializer
from games.engine import DEV_DEAL_KEY, GameCode, public_form
from games.engine import Game as EngineGame
from games.errors import ServiceError

EXAMPLE_CODE = "YU1-C-AAAAAAB"


def _example_state() -> dict[str, object]:
    """A real opening position (development deal key), so the example is always truthful."""
    board = public_form(EngineGame.new(GameCode.parse(EXAMPLE_CODE), DEV_DEAL_KEY))
    return {
        "id": 12,
        "owner": "alice",
        "code": EXAMPLE_CODE,
        "rule": "C",
        "status": "active",
        "version": 0,
        "score": 0,
        "move_count": 0,
        "cards_on_foundations": 0,
        "elapsed_seconds": 0.0,
        "clock_running": False,
        "assisted": False,
        "closed": False,
        "created_at": "2026-11-30T09:00:00+00:00",
        "first_move_at": None,
        "finished_at": None,
        "columns": board["columns"],
        "foundations": board["foundations"],
        "undo_depth": 0,
        "legal_moves": board["legal_moves"],
        "can_finish": False,
    }


STATE_EXAMPLE = OpenApiExample(
    "opening position", value=_example_state(), response_only=True, status_codes=["200", "201"]
)

ERROR_EXAMPLES: dict[int, tuple[str, str, dict[str, object]]] = {
    400: (
        "invalid-request",
        "The request has invalid fields; see 'fields'.",
        {"fields": {"name": ["This field is required."]}},
    ),
    401: ("not-authenticated", "Authentication credentials were not provided.", {}),
    403: ("not-your-game", "Game 12 belongs to another player.", {}),
    404: ("not-found", "Not found.", {}),
    409: (
        "stale-version",
        "You saw version 6 but the game is at version 7.",
        {"state": {"id": 12, "version": 7, "...": "the current public state"}},
    ),
    410: ("link-expired", "This link has expired: ask for a new one.", {}),
    413: ("body-too-large", "The request body is larger than 2621440 bytes.", {}),
    422: (
        "empty-column-needs-king",
        "An empty column only accepts a King (QH leads the group).",
        {"rule": "empty-column"},
    ),
    429: (
        "throttled",
        "Request was throttled. Expected available in 42 seconds.",
        {"retry_after_seconds": 42},
    ),
    503: (
        "no-daily-deal",
        "No Russian deal of 2026-12-01 was proven winnable within the daily search's budget; "
        "there is no such daily today.",
        {},
    ),
}

#: The examples of the game endpoints, where a 400 is mostly bad notation and a 404 a game.
GAME_EXAMPLES: dict[int, tuple[str, str, dict[str, object]]] = {
    400: (
        "invalid-move",
        "The text is not a move: '10D-3' (expected e.g. 10D>3 or 7S>F).",
        {"rule": "syntax"},
    ),
    404: ("game-not-found", "There is no game 12.", {}),
}

DESCRIPTIONS = {
    400: "Malformed input (JSON, too deep, lone surrogates, fields, card, move or code text).",
    401: "Not signed in, or an unknown API token.",
    403: (
        "Signed in, but not allowed (not your game, a missing CSRF token for a session, "
        "a token without the operation's scope, or a token where the session is needed)."
    ),
    404: "No such object.",
    409: (
        "Your version is stale (the current state is included), the game is over, "
        "or an upgrade was asked for an account that is not a guest."
    ),
    410: "The link (or the archive it leads to) has expired: ask for a new one.",
    413: "The request body is over the size limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB).",
    422: "The rules refuse the move; `code` names the refusing rule.",
    429: "Too many requests; see the Retry-After header.",
    503: "No daily deal today: no candidate was proven winnable within the search's budget.",
}


def errors(
    *statuses: int,
    example_403: ServiceError | None = None,
    game: bool = False,
    codes: Mapping[int, Sequence[type[ServiceError]]] | None = None,
) -> dict[int, OpenApiResponse]:
    """Documented error responses for the given HTTP statuses, each with an example body.

    `example_403` replaces the 403 example where an endpoint refuses for a reason of its own;
    `game` picks the game endpoints' examples (bad notation, a missing game); `codes` names
    the refusals of the operation's own under a status: each gets an example, and the
    status's description lists them.
    """
    documented = {}
    for status in statuses:
        code, message, extra = (GAME_EXAMPLES if game else {}).get(status, ERROR_EXAMPLES[status])
        if status == 403 and example_403 is not None:
            code, message, extra = example_403.code, example_403.detail, {}
        own = (codes or {}).get(status, ())
        examples = [_example(status, refusal.code, str(refusal.message), {})
                    for refusal in own]  # fmt: skip
        if code not in {refusal.code for refusal in own}:
            examples.append(_example(status, code, message, extra))
        description = DESCRIPTIONS[status]
        if own:
            listed = ", ".join(f"`{refusal.code}`" for refusal in own)
            description = f"{description} This operation's own: {listed}."
        documented[status] = OpenApiResponse(
            ErrorSerializer, description=description, examples=examples
        )
    return documented


def _example(status: int, code: str, message: str, extra: dict[str, object]) -> OpenApiExample:
    return OpenApiExample(
        code,
        value={"error": {"code": code, "message": message, **extra}},
        response_only=True,
        status_codes=[str(status)],
    )
