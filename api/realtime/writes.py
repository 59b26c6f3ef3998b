"""The owner's writes on the game's websocket: REST's checks and service call, one door further.

A write is `{"t": "move" | "tap" | "double-click" | "undo" | "resign", "id": ..., "d": body}`
with the body of its REST endpoint. It passes the checks a REST write passes, in the
same order (signed in, the token's `game:play` scope, the move throttle, the body spec),
then the same `api.intents` entry calls the same service in the same transaction; a
refusal is REST's error object (`api.errors.refusal`) plus its HTTP status. The socket
stays open whatever comes: a write that breaks on our side is answered `server-error`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError
from django.http import HttpRequest
from django.utils import translation
from rest_framework import exceptions, serializers

from accounts.authentication import TokenGrant
from accounts.language import player_language
from accounts.scopes import GAME_WRITE, check_scope
from api import intents
from api.errors import OTHER_CODES, error_body, refusal
from api.parsers import JsonTooDeep, LoneSurrogate, inspect_json
from api.throttles import MoveThrottle
from games import push_transport, pushes
from games.errors import NotYourGame
from games.public import GameState
from ops.kept_connections import KeptConnectionThreads

logger = logging.getLogger(__name__)

#: The largest client message a feed reads (a write's is under 200 bytes).
MAX_MESSAGE_BYTES = 4096

INTENTS: dict[str, intents.Intent] = {
    pushes.ClientType.MOVE: intents.MOVE,
    pushes.ClientType.TAP: intents.TAP,
    pushes.ClientType.DOUBLE_CLICK: intents.DOUBLE_CLICK,
    pushes.ClientType.UNDO: intents.UNDO,
    pushes.ClientType.RESIGN: intents.RESIGN,
}


#: Where the writes run: off the event loop, on connections kept from one write to the next.
threads = KeptConnectionThreads(settings.WS_WRITE_THREADS, "ws-write")


class Envelope(serializers.Serializer[Any]):
    """What every write carries besides its body: the client's id to match the answer."""

    id = serializers.CharField(max_length=64, trim_whitespace=False)


@dataclass(frozen=True)
class Client:
    """Who sent the write, as the socket's handshake said (fixed for the socket's life)."""

    user: Any
    grant: TokenGrant | None
    is_owner: bool
    cookies: Mapping[str, str]
    accept_language: str


@dataclass(frozen=True)
class Reply:
    """The message to send, and the full game state it carries (None: it carries none)."""

    message: pushes.Unversioned
    state: GameState | None = None


class MessageTooLarge(Exception):
    """A client message over MAX_MESSAGE_BYTES."""


def read(text: str | bytes) -> tuple[dict[str, Any] | None, pushes.Unversioned | None]:
    """A client message as a JSON object, or else the error to answer it with.

    Bounded like a REST body: its size, its nesting depth, no lone surrogates.
    """
    try:
        if len(text) > MAX_MESSAGE_BYTES:
            raise MessageTooLarge()
        try:
            content = json.loads(text)
        except RecursionError:
            raise JsonTooDeep() from None
        inspect_json(content)
    except ValueError:
        content = None
    except (MessageTooLarge, JsonTooDeep, LoneSurrogate) as exc:
        return None, pushes.refused(None, *refusal_for(exc))
    if not isinstance(content, dict):
        return None, pushes.error("bad-message", "Send one JSON object per message.")
    return content, None


def refusal_for(exc: Exception) -> tuple[int, dict[str, Any]]:
    """REST's status and body for `exc`; a fault of ours (logged) when it is no refusal."""
    if isinstance(exc, MessageTooLarge):
        message = str(OTHER_CODES["body-too-large"]) % {"limit": MAX_MESSAGE_BYTES}
        return 413, error_body("body-too-large", message)
    refused = refusal(exc)
    if refused is not None:
        return refused
    if isinstance(exc, DatabaseError):
        logger.warning("a websocket write found no database", exc_info=True)
        return 503, error_body("database-unavailable", str(OTHER_CODES["database-unavailable"]))
    logger.exception("a websocket write failed")
    return 500, error_body("server-error", str(OTHER_CODES["server-error"]))


async def write_off_loop(
    client: Client,
    game_id: int,
    kind: str,
    content: dict[str, Any],
    answered: push_transport.AnsweredChannel,
) -> Reply:
    """`write` in one of `threads` (writes of different games run side by side); its pushes
    skip the channel `answered` names (the writer's socket gets the answer instead)."""

    def run() -> Reply:
        with push_transport.answered_directly(answered):
            return write(client, game_id, kind, content)

    return await threads.run(run)


def write(client: Client, game_id: int, kind: str, content: dict[str, Any]) -> Reply:
    """Carry out one write (in a worker thread: it touches the database) and build its reply."""
    raw_id = content.get("id")
    request_id: str | int | None = raw_id if _plain_id(raw_id) else None
    try:
        if request_id is None:  # the spec only for the rest: it says what is wrong, as REST
            envelope = Envelope(data=content)
            envelope.is_valid(raise_exception=True)
            request_id = str(envelope.validated_data["id"])
        scopes = client.grant.scopes if client.grant is not None else None
        player = _player(client, game_id)
        outcome = INTENTS[kind].run(player, game_id, content.get("d", {}), scopes)
    except Exception as exc:  # every refusal, and our own faults, answer on the socket
        with translation.override(_language(client)):
            status, body = refusal_for(exc)
        state = body["error"].get("state")
        return Reply(pushes.refused(request_id, status, body), state)
    return Reply(pushes.answer(request_id, outcome.state), outcome.state)


def _plain_id(value: object) -> TypeGuard[str | int]:
    """An id the envelope spec accepts as it is: 1 to 64 characters of text, or a number."""
    if isinstance(value, str):
        return 0 < len(value) <= 64
    return isinstance(value, int) and not isinstance(value, bool) and len(str(value)) <= 64


def _player(client: Client, game_id: int) -> User:
    """The checks REST makes before a view runs, in its order; the player who may write."""
    user = client.user
    if user is None or not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    if client.grant is not None:
        check_scope(client.grant.scopes, GAME_WRITE, "POST")
    if not client.is_owner:  # the service refuses it too; this spares the database
        raise NotYourGame(f"Game {game_id} belongs to another player.")
    throttle = MoveThrottle()
    if not throttle.allow_player(user.pk):
        raise exceptions.Throttled(throttle.wait())
    assert isinstance(user, User)
    return user


def _language(client: Client) -> str:
    """The language REST would answer in: the player's stored choice, else cookie or header."""
    stored = player_language(client.user)
    if stored:
        return stored
    request = HttpRequest()
    request.COOKIES = dict(client.cookies)
    request.META["HTTP_ACCEPT_LANGUAGE"] = client.accept_language
    return translation.get_language_from_request(request)
