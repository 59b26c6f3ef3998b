"""Websocket consumers: one game's live changes (and its owner's writes), the lobby's feed.

They forward what `games.pushes` publishes and build their own messages
(snapshots from the REST functions in `games.public`, so both channels send
the same shapes) with `games.pushes` too. They decide no rule: the owner's
writes on the game feed go through `api.realtime.writes` to the REST path's
service calls. The protocol is documented in docs/realtime.md.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from accounts.authentication import TokenGrant, token_stands
from accounts.scopes import RACE_READ, MissingScope, RequiredScope, check_scope
from accounts.sessions import session_stands
from api.realtime import writes
from api.realtime.fanout import fanout_for
from api.realtime.limits import MessageRate, SocketOwner, open_sockets, socket_owner
from api.realtime.outbox import Outbox
from api.realtime.revocation import session_group, token_group
from api.realtime.sequencer import Position, Sequencer, position_of
from games import push_transport, pushes
from games.fairness import visibility
from games.models import Game
from games.public import GameState, GameSummary, game_state, game_summary

if TYPE_CHECKING:
    from asgiref.typing import WebSocketConnectEvent, WebSocketReceiveEvent

logger = logging.getLogger(__name__)

CLOSE_BAD_TOKEN = 4401
CLOSE_MISSING_SCOPE = 4430
CLOSE_PRIVATE_GAME = 4403
CLOSE_NO_GAME = 4404
#: The client did not read its messages: more than WS_OUTBOX_MESSAGES waited for it.
CLOSE_TOO_SLOW = 4408
#: Over a limit: too many open sockets for the client, or too many messages on the socket.
CLOSE_TOO_MANY = 4429
#: How long a closing socket's last messages may take to go out before its task stops.
CLOSE_WAIT_SECONDS = 5.0
LOBBY_SIZE = 50


class PushConsumer(AsyncJsonWebsocketConsumer):
    """What every feed shares: refusing a bad, revoked or expired token, the limits a client
    is held to, ping, resync, errors for the rest, and a socket that never blocks a push.

    Like the REST views, each feed declares the scope a token needs (`required_scope`).
    Everything the socket sends goes through its `Outbox`: a push never waits for the
    client. Whatever ends the socket (the client closes it, the connection drops, it is
    closed for a limit, the server stops), `release` runs once: it leaves the groups and
    gives back what the socket held.
    """

    group = ""
    #: The group told when the socket's credentials end: its token's, or its session's.
    revocation_group: str | None = None
    required_scope: RequiredScope = "game:read"

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.outbox = Outbox(send, settings.WS_OUTBOX_MESSAGES)
        self.ended = asyncio.Event()
        self.end_code = 1000
        self.counted: SocketOwner | None = None
        self.released = False
        self.expiry: asyncio.TimerHandle | None = None
        self.rate = MessageRate(settings.WS_MESSAGES_PER_SECOND, settings.WS_MESSAGE_BURST)
        try:
            into_outbox = cast("Any", self._into_outbox)  # takes every ASGI message it is given
            await super().__call__(scope, self._receive_until_ended(receive), into_outbox)
        finally:
            await self.release_once()
            await self.outbox.finish(CLOSE_WAIT_SECONDS)

    def _receive_until_ended(self, receive: Any) -> Any:
        """The server's `receive`, or a `websocket.disconnect` once the socket is ended here
        (closed for a limit, or its connection broke under a send)."""

        async def receive_or_end() -> dict[str, Any]:
            if not self.ended.is_set():
                incoming = asyncio.ensure_future(receive())
                ending = asyncio.ensure_future(self._ending())
                try:
                    await asyncio.wait({incoming, ending}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    ending.cancel()
                    if not incoming.done():
                        incoming.cancel()
                if incoming.done() and not incoming.cancelled():
                    return cast("dict[str, Any]", incoming.result())
            return {"type": "websocket.disconnect", "code": self.end_code}

        return receive_or_end

    async def _ending(self) -> None:
        ended = asyncio.ensure_future(self.ended.wait())
        broken = asyncio.ensure_future(self.outbox.broken.wait())
        try:
            await asyncio.wait({ended, broken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
            broken.cancel()
        if self.outbox.broken.is_set() and not self.ended.is_set():
            self.end_code = 1006
            self.ended.set()

    async def _into_outbox(self, message: dict[str, Any]) -> None:
        """Channels' `base_send`: every ASGI message the socket sends, queued in order; never
        waits for the client."""
        if message["type"] == "websocket.close":
            self.end(message.get("code") or 1000, message.get("reason") or "")
        elif not self.outbox.put(message):
            logger.info("a socket fell %s messages behind; closing it", settings.WS_OUTBOX_MESSAGES)
            self.end(CLOSE_TOO_SLOW, "too-slow", drop_pending=True)

    def end(self, code: int, reason: str = "", *, drop_pending: bool = False) -> None:
        """Close the socket with `code` (after what is queued, unless `drop_pending`) and stop
        its consumer; it receives nothing more."""
        message = {"type": "websocket.close", "code": code, "reason": reason}
        self.outbox.close(message, drop_pending=drop_pending)
        if not self.ended.is_set():
            self.end_code = code
            self.ended.set()

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        """Count the socket against its client's limit (and an anonymous one against its
        address's ceiling) before anything else is done for it."""
        owner = socket_owner(cast("dict[str, Any]", self.scope))
        limits = (settings.WS_MAX_SOCKETS_PER_CLIENT, settings.WS_MAX_SOCKETS_PER_ADDRESS)
        if not open_sockets.take(owner, *limits):
            await self.refuse(CLOSE_TOO_MANY, "too-many-sockets")
            return
        self.counted = owner
        await super().websocket_connect(message)

    async def connect(self) -> None:
        if self.scope.get("auth_error") or not await self.follow_token():
            await self.refuse(CLOSE_BAD_TOKEN, "bad-token")
            return
        grant = self.token_grant()
        try:
            if grant is not None:
                check_scope(grant.scopes, self.required_scope, "GET")
        except MissingScope:
            await self.refuse(CLOSE_MISSING_SCOPE, "missing-scope")
            return
        if grant is not None and grant.expires_at is not None:
            left = (grant.expires_at - timezone.now()).total_seconds()
            loop = asyncio.get_running_loop()
            self.expiry = loop.call_later(max(left, 0), self.end, CLOSE_BAD_TOKEN, "token-expired")
        if self.group:  # a feed that reads its own pushes (an arena's) joins no group
            await fanout_for(self.channel_layer).join(self.group, self)
        await self.start()

    async def follow_token(self) -> bool:
        """Join the token's revocation group, then check the token still stands.

        Joined before the check, so a revocation committed after the handshake's
        lookup is seen either way: by the check, or as a `token.revoked` message.
        """
        grant = self.token_grant()
        if grant is None:
            return await self.follow_session()
        self.revocation_group = token_group(grant.kind, grant.token_id)
        await self.channel_layer.group_add(self.revocation_group, self.channel_name)
        return await database_sync_to_async(token_stands)(grant.kind, grant.token_id)

    async def follow_session(self) -> bool:
        """A signed-in browser session's socket: join the session's group, so signing that
        session out from another closes it (`session.ended`), then check it still stands."""
        key = getattr(self.scope.get("session"), "session_key", None)
        if key is None or not getattr(self.scope.get("user"), "is_authenticated", False):
            return True
        self.revocation_group = session_group(key)
        await self.channel_layer.group_add(self.revocation_group, self.channel_name)
        return await database_sync_to_async(session_stands)(key)

    def token_grant(self) -> TokenGrant | None:
        """The token this socket was opened with (put there by api.realtime.auth), if any."""
        return cast("TokenGrant | None", self.scope.get("token_grant"))

    async def token_revoked(self, event: dict[str, Any]) -> None:
        """`token.revoked` (see `api.realtime.revocation`): the token opened this socket."""
        self.end(CLOSE_BAD_TOKEN, "token-revoked")

    async def session_ended(self, event: dict[str, Any]) -> None:
        """`session.ended`: the player signed this socket's session out from another."""
        self.end(CLOSE_BAD_TOKEN, "signed-out")

    async def start(self) -> None:
        """Accept the connection and send the opening messages."""
        raise NotImplementedError

    async def snapshot(self) -> None:
        """Send the feed's full current picture (on connect and on resync)."""
        raise NotImplementedError

    async def refuse(self, code: int, reason: str = "") -> None:
        """Accept then close, so the client sees our close code (not a bare HTTP 403)."""
        await self.accept()
        self.end(code, reason)

    async def disconnect(self, code: int) -> None:
        await self.release_once()

    async def release_once(self) -> None:
        if not self.released:
            self.released = True
            await self.release()

    async def release(self) -> None:
        """Give back what the socket holds; subclasses add theirs (runs once, however the
        socket ends)."""
        if self.expiry is not None:
            self.expiry.cancel()
        if self.counted is not None:
            open_sockets.give_back(self.counted)
        if self.revocation_group is not None:
            await self.channel_layer.group_discard(self.revocation_group, self.channel_name)
        if self.group:
            await fanout_for(self.channel_layer).leave(self.group, self)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if self.ended.is_set():
            return
        if not self.rate.allow():
            self.end(CLOSE_TOO_MANY, "too-many-messages", drop_pending=True)
            return
        content, error = writes.read(text_data or bytes_data or b"")
        if content is None:
            await self.send_json(error)
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("t")
        if kind == pushes.ClientType.PING:
            await self.send_json(pushes.pong())
        elif kind == pushes.ClientType.RESYNC:
            await self.snapshot()
        else:
            await self.send_error("unknown-type", f"Unknown message type {kind!r}.")

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json(pushes.error(code, message))

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Pushes and client frames skip Channels' `close_old_connections` hop to the
        shared sync thread.

        That hop, once per message per consumer, serialised a push to 500 spectators
        behind 500 thread round trips, and cost every move sent on the socket two thread
        hand-offs. Neither touches the database on this thread: the snapshots that do
        go through `database_sync_to_async`, which cleans connections up itself, and
        the writes run on threads keeping their own (`writes.threads`).
        """
        kind = message["type"]
        if kind in (push_transport.LAYER_TYPE, push_transport.OWNER_LAYER_TYPE):
            await self.push_message(message)
        elif kind == "websocket.receive":
            await self.websocket_receive(cast("WebSocketReceiveEvent", message))
        else:
            await super().dispatch(message)

    async def push_message(self, event: dict[str, Any]) -> None:
        """A push from `games.pushes` (see `push_transport.layer_message`)."""
        await self.send(text_data=event["text"])

    def busy(self) -> bool:
        """Whether a push would have to wait (see `fanout.Fanout`)."""
        return False


@database_sync_to_async
def _load_game(game_id: int) -> tuple[pushes.Push, int] | None:
    """The game's `state` message and its owner's id, or None when there is no such game."""
    game = Game.objects.select_related("owner").filter(pk=game_id).first()
    if game is None:
        return None
    return pushes.state(game.version, game_state(game)), game.owner_id


@database_sync_to_async
def _refusal(game_id: int, user: Any) -> int | None:
    """The close code refusing `user` this game (another's running daily is private), or None."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return CLOSE_NO_GAME
    return CLOSE_PRIVATE_GAME if visibility.is_private_to_owner(game, user) else None


@database_sync_to_async
def _lobby_games() -> list[GameSummary]:
    games = (
        Game.objects.filter(visibility.open_to_anyone_filter(), status=Game.Status.ACTIVE)
        .select_related("owner")
        .defer("state")
        .order_by(F("last_move_at").desc(nulls_last=True), "-created_at")[:LOBBY_SIZE]
    )
    return [game_summary(game) for game in games]


class SequencedConsumer(PushConsumer):
    """A feed whose versioned pushes reach the client in version order, each once.

    Pushes are published on commit from different threads and processes, so two changes
    can arrive in the wrong order, and a push of a version the client's snapshot already
    covers can arrive after it. Out-of-order pushes wait in a `Sequencer`; a gap that does
    not fill within `gap_wait_seconds` (a lost push) is closed by a fresh snapshot. The
    lock is held while a snapshot is read and sent: pushes arriving meanwhile wait for it.
    """

    gap_wait_seconds = 0.25

    def start_sequence(self) -> None:
        self.sequencer = Sequencer()
        self.lock = asyncio.Lock()
        self.gap_timer: asyncio.Task[None] | None = None

    async def release(self) -> None:
        if self.gap_timer is not None:
            self.gap_timer.cancel()
        await super().release()

    def busy(self) -> bool:
        # Held while a snapshot reads the database or a write runs; pushes queue on it in
        # arrival order.
        return self.lock.locked()

    async def push_message(self, event: dict[str, Any]) -> None:
        async with self.lock:
            position = position_of(event["v"], event["t"])
            await self._send_all(self.sequencer.offer(position, event["text"]))

    async def send_snapshot(self, message: pushes.Push, position: Position) -> None:
        """Send a full picture (lock held); it stands for every message up to `position`."""
        await self.send_json(message)
        await self.stand_at(position)

    async def stand_at(self, position: Position) -> None:
        """The client has everything up to `position`: send what held messages may follow."""
        await self._send_all(self.sequencer.reset(position))

    async def _send_all(self, texts: list[str]) -> None:
        for text in texts:
            await self.send(text_data=text)
        self._watch_gap()

    def _watch_gap(self) -> None:
        """Start the gap timer when a message is held back; stop it once nothing is."""
        if self.sequencer.waiting and self.gap_timer is None:
            self.gap_timer = asyncio.create_task(self._resync_after_gap())
        elif not self.sequencer.waiting and self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    async def _resync_after_gap(self) -> None:
        await asyncio.sleep(self.gap_wait_seconds)
        self.gap_timer = None
        await self.snapshot()


class GameConsumer(SequencedConsumer):
    """`/ws/v1/games/<id>/`: anyone may watch (but not another's running daily); pushes in order.

    A racing client's token may hold only `race:play`: it follows its race game here.
    """

    required_scope = RACE_READ

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = pushes.game_group(self.game_id)
        self.start_sequence()
        self.is_owner = False
        refusal = await _refusal(self.game_id, self.scope.get("user"))
        if refusal is not None:  # checked before joining the group: not one push may leak
            await self.refuse(refusal)
            return
        await super().connect()

    async def start(self) -> None:
        # Subscribed before this read, so nothing committed after it can be missed.
        loaded = await _load_game(self.game_id)
        if loaded is None:
            await self.refuse(CLOSE_NO_GAME)
            return
        state, owner_id = loaded
        user = self.scope.get("user")
        player = user if user is not None and user.is_authenticated else None
        await self.accept()
        username = player.get_username() if player is not None else None
        owner = self.is_owner = player is not None and player.pk == owner_id
        await self.send_json(pushes.hello(username, owner=owner))
        async with self.lock:
            await self._send_state(state)

    async def snapshot(self) -> None:
        async with self.lock:
            loaded = await _load_game(self.game_id)
            if loaded is None:
                await self.close(CLOSE_NO_GAME)
                return
            await self._send_state(loaded[0])

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("t")
        if isinstance(kind, str) and kind in writes.INTENTS:
            await self.write(kind, content)
        else:
            await super().receive_json(content)

    async def write(self, kind: str, content: dict[str, Any]) -> None:
        """One of the owner's writes; its answer stands for the push of the same version.

        The lock holds this socket's pushes back until the answer is out; the answer's
        state then moves the sequencer, which drops the push of that version when it
        comes (the answer already told it). Other sockets get the push as usual.
        """
        headers = dict(self.scope.get("headers", []))
        client = writes.Client(
            user=self.scope.get("user"),
            grant=self.token_grant(),
            is_owner=self.is_owner,
            cookies=self.scope.get("cookies", {}),
            accept_language=headers.get(b"accept-language", b"").decode("latin-1"),
        )
        fanout = fanout_for(self.channel_layer)
        async with self.lock:
            reply = await writes.write_off_loop(
                client,
                self.game_id,
                kind,
                content,
                lambda group: fanout.channel_only_for(group, self),
            )
            await self.send_json(reply.message)
            if reply.state is not None:
                await self.stand_at(_state_position(reply.state))

    async def push_message(self, event: dict[str, Any]) -> None:
        if event["type"] == push_transport.OWNER_LAYER_TYPE:
            if self.is_owner:  # an answer for the owner (a queued hint); out of the sequence
                await self.send(text_data=event["text"])
            return
        await super().push_message(event)

    async def _send_state(self, state: pushes.Push) -> None:
        await self.send_snapshot(state, _state_position(state["d"]))


def _state_position(state: GameState) -> Position:
    """A full game state stands after every message up to its version (its `finished` too)."""
    ended = state["status"] != Game.Status.ACTIVE
    return position_of(state["version"], pushes.Type.STATE, ended=ended)


class LobbyConsumer(PushConsumer):
    """`/ws/v1/lobby/`: a snapshot of active games, then started/progress/finished events."""

    group = pushes.LOBBY_GROUP

    async def start(self) -> None:
        await self.accept()
        await self.snapshot()

    async def snapshot(self) -> None:
        await self.send_json(pushes.lobby(await _lobby_games()))
