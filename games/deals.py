"""Engine games for stored games: the deployment's deal key, fresh deals, snapshots, replays.

The deal key (settings.DEAL_KEY) decides where the face-down cards lie, so it is
read here only; a log is replayed here only (the engine's checked `replay` when
only the end matters, `replay_steps` when every step is wanted).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.engine import UNDO_ENTRY, GameCode, Move, MoveResult, public_form, read_private, replay
from games.engine import Game as EngineGame
from games.models import Game


def deal_key() -> bytes:
    """This deployment's secret deal key."""
    return bytes(settings.DEAL_KEY)


#: Domain separation of the self-play key from the deal key.
SELF_PLAY_CONTEXT = b"yukon-self-play-v1"


def self_play_key() -> bytes:
    """The key of the server's self-play deals, derived from the deal key: no game code deals
    under it, so no game anyone can open shows a self-play deal's cards."""
    return hmac.new(deal_key(), SELF_PLAY_CONTEXT, hashlib.sha256).digest()


def self_play_deal(code: GameCode) -> EngineGame:
    """Self-play deal `code` (its number under the self-play key, not a playable code)."""
    return EngineGame.new(code, self_play_key())


def new_game(code: GameCode) -> EngineGame:
    """The deal of `code` as this deployment deals it, before any move."""
    return EngineGame.new(code, deal_key())


def current(game: Game) -> EngineGame:
    """The engine position of a stored game (its snapshot)."""
    return read_private(game.state)


def replayed(game: Game, log: Iterable[str]) -> EngineGame:
    """The position after playing `log` (move texts and "undo") from the game's deal."""
    return replay(GameCode.parse(game.code), deal_key(), log)


@dataclass(frozen=True)
class Step:
    """One log entry replayed: its text, what the move did (None for an undo), the game after."""

    text: str
    result: MoveResult | None
    engine: EngineGame


def replay_steps(engine: EngineGame, log: Iterable[str]) -> Iterator[Step]:
    """Play `log` on `engine` (usually `new_game(code)`), yielding after each entry.

    The same engine object is yielded each time: read it before the next step.
    """
    for text in log:
        if text == UNDO_ENTRY:
            engine.undo()
            yield Step(text, None, engine)
        else:
            yield Step(text, engine.play(Move.parse(text)), engine)


def public_steps(engine: EngineGame, texts: list[str], *, after: int = 0) -> list[dict[str, Any]]:
    """A replay as a viewer sees it: the public board before the first entry and after each
    (seq after + 1, after + 2, ... as in a log, `after` being the seq `engine` stands at);
    no face-down card named."""
    steps = [_step(after, None, engine)]
    for seq, step in enumerate(replay_steps(engine, texts), start=after + 1):
        steps.append(_step(seq, step.text, step.engine))
    return steps


def _step(seq: int, move: str | None, engine: EngineGame) -> dict[str, Any]:
    board = public_form(engine)
    return {
        "seq": seq,
        "move": move,
        "columns": board["columns"],
        "foundations": board["foundations"],
        "score": engine.score,
        "move_count": engine.move_count,
    }
