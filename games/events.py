"""What happened: the events the services record, and where they go.

A service changes the database and says what happened (a game started, a move was
played, a race ended, a solve is wanted); it never calls the push transport or the task
queue. `games.effects` alone decides what each event means: which pushes go to which
feed once the transaction commits, which tasks are queued within it. GamesConfig.ready
hands this module that one sink (`deliver_to`), so services depend on nothing above
them: no service imports the effects, the pushes' transport or the tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import MoveResult
from games.models import Game
from games.odds.keys import KeyName
from games.public import GameState
from games.races.public import RacerProgress, RaceState


@dataclass(frozen=True)
class GameStarted:
    game: Game


@dataclass(frozen=True)
class GameDiscarded:
    """An untouched game was replaced by a new one and deleted; `listed`: the lobby showed it."""

    game_id: int
    listed: bool


@dataclass(frozen=True)
class Moved:
    """An accepted move, tap, double click or take-back; `state` is the game after it."""

    game: Game
    result: MoveResult
    kind: str
    intent: str
    state: GameState


@dataclass(frozen=True)
class Undone:
    game: Game
    move: str
    state: GameState


@dataclass(frozen=True)
class GameEnded:
    """A game was won or abandoned (or closed by its race's end)."""

    game: Game
    state: GameState


@dataclass(frozen=True)
class AnalysisWanted:
    """A finished game's analysis is queued, or has more positions to solve."""

    game_id: int


@dataclass(frozen=True)
class BoardJudgingWanted:
    """A board position's legal moves are to be judged (games.analysis.board)."""

    key: str


@dataclass(frozen=True)
class HintSolveWanted:
    """A hint or winnability question needs a solve of the game at `version` (`seconds`:
    its time budget; a longer one follows an answer that could not be proven)."""

    game_id: int
    version: int
    seconds: float


@dataclass(frozen=True)
class AssistAnswered:
    game_id: int
    question: str
    answer: dict[str, Any]


@dataclass(frozen=True)
class DealLineWanted:
    """A closed daily deal's winning line is asked for the first time."""

    code: str


@dataclass(frozen=True)
class PuzzleMiningWanted:
    """A lost game's turning point was found: its puzzles are to be mined."""

    game_id: int


@dataclass(frozen=True)
class PuzzleStockWanted:
    """The public puzzle pool runs low: one more self-play deal is to be mined."""


@dataclass(frozen=True)
class DealsMeasureWanted:
    """A chunk of the published sample's deals is to be measured (`manage.py winnability`)."""

    key: KeyName
    rule: str
    numbers: list[int]
    node_budget: int


@dataclass(frozen=True)
class DealGradeWanted:
    """A deal dealt with this deployment's key needs its grade (a daily deal's)."""

    rule: str
    number: int
    node_budget: int


@dataclass(frozen=True)
class RaceChanged:
    """A race changed (joined, ready, countdown, start, presence, the end): its whole state."""

    race: RaceState


@dataclass(frozen=True)
class RaceProgressed:
    """A racer's game changed: their progress at the race's `version`."""

    room: str
    version: int
    racer: RacerProgress
    server_now: str


@dataclass(frozen=True)
class ExportWanted:
    """A player asked for "Download my data" (games.exports)."""

    export_id: int


Event = (
    GameStarted
    | GameDiscarded
    | Moved
    | Undone
    | GameEnded
    | AnalysisWanted
    | HintSolveWanted
    | BoardJudgingWanted
    | AssistAnswered
    | DealLineWanted
    | PuzzleMiningWanted
    | PuzzleStockWanted
    | DealsMeasureWanted
    | DealGradeWanted
    | RaceChanged
    | RaceProgressed
    | ExportWanted
)

_sink: Callable[[Event], None] | None = None


def deliver_to(sink: Callable[[Event], None]) -> None:
    """Where recorded events go (`games.effects.apply`, set once as the app starts)."""
    global _sink
    _sink = sink


def happened(*events: Event) -> None:
    """Record events, in order, in the current transaction (their effects take it from there:
    pushes wait for the commit, tasks are queued within the transaction)."""
    if _sink is None:
        raise RuntimeError("games.events has no sink: the games app is not ready")
    for event in events:
        _sink(event)
