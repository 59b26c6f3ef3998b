"""The analysis board: positions a viewer may open, moves tried freely, every move judged.

A board opens from a position its viewer may see: a step of a finished game's replay, a
puzzle its viewer has solved, or a step of the viewer's own practice game still in play (a
retry or daily practice: games.fairness.boards). Each position is a `BoardPosition`
row named by an opaque key (a keyed hash of the deal and the cards), never by the cards
themselves; a move on the board leads to the child's row, and no game is created.

Judging runs on the task workers (`judge`): the position is solved first (a lost one
loses with every move, a won line's first move keeps the win at once), then each other
legal move's position within `BOARD_MOVE_NODES` solver positions, the row rewritten after
each, so a viewer polling `verdicts` sees them fill in. A position is judged once, for
every viewer after. Every door asks games.fairness.boards first, at every read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import deals, events
from games.analysis.judging import judge_moves
from games.analysis.models import BoardPosition
from games.engine import Game as EngineGame
from games.engine import Move, private_form, public_form, read_private
from games.errors import (
    GameNotFinished,
    GameNotFound,
    NoSuchVersion,
    NotYourGame,
    ServiceError,
)
from games.fairness import boards, solver_help, visibility
from games.models import Game
from games.puzzles.models import Puzzle, PuzzleAttempt
from games.puzzles.public import visible_puzzle

#: Hex digits of a position's key (96 bits of its keyed hash).
KEY_LENGTH = 24


class PositionNotFound(ServiceError):
    """A key no board position has (keys are opaque: none is guessed from the cards)."""

    code = "position-not-found"
    status = 404
    message = _("There is no such board position.")


class PuzzleNotSolved(ServiceError):
    """A puzzle's board (which judges its answer) before its viewer has solved the puzzle."""

    code = "puzzle-not-solved"
    status = 403
    message = _("A puzzle's analysis board opens once you have solved the puzzle.")


def key_of(code: str, engine: EngineGame) -> str:
    """The position's key: a keyed hash of its deal and its cards (not of the score or the
    undo window), so the key tells nothing of the cards and nobody can make one up."""
    board = private_form(engine)
    named = json.dumps([code, board["rule"], board["columns"], board["foundations"]])
    digest = hmac.new(settings.SECRET_KEY.encode(), named.encode(), hashlib.sha256).digest()
    return digest.hex()[:KEY_LENGTH]


def _keep(code: str, engine: EngineGame, puzzle: Puzzle | None) -> BoardPosition:
    """The position's row, made on first sight. Reached from an open source (no puzzle), it
    is open to every viewer allowed the deal from then on, even if a puzzle reached it first."""
    row, created = BoardPosition.objects.get_or_create(
        key=key_of(code, engine),
        defaults={"code": code, "position": private_form(engine), "puzzle": puzzle},
    )
    if not created and puzzle is None and row.puzzle_id is not None:
        BoardPosition.objects.filter(pk=row.pk).update(puzzle=None)
        row.puzzle = None
    return row


def open_from_game(viewer: User, game_id: int, version: int) -> BoardPosition:
    """A board at `version` of a game: any finished game the viewer may replay, or the
    viewer's own practice game (a retry, daily practice) still in play."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    visibility.ensure_replayable(game, viewer)
    if not game.is_finished:
        if game.owner_id != viewer.pk:
            raise NotYourGame(f"Game {game_id} belongs to another player and is still played.")
        if not boards.opens_while_played(game):
            raise GameNotFinished(
                f"Game {game_id} is still being played and counts: its board opens when it ends."
            )
    boards.ensure_board_open(game.code)
    solver_help.ensure_help_allowed(viewer, game)
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    if not 0 <= version <= len(texts):
        raise NoSuchVersion(f"Game {game_id} has versions 0 to {len(texts)}, not {version}.")
    return _keep(game.code, deals.replayed(game, texts[:version]), None)


def open_from_puzzle(viewer: User, puzzle_id: int) -> BoardPosition:
    """A board on a puzzle's position, once its viewer has solved the puzzle."""
    puzzle = visible_puzzle(puzzle_id, viewer)
    if not PuzzleAttempt.objects.filter(player=viewer, puzzle=puzzle, correct=True).exists():
        raise PuzzleNotSolved(f"Puzzle {puzzle_id} is not solved yet: its board opens after.")
    code = puzzle.game.code if puzzle.game is not None else ""
    boards.ensure_board_open(code)
    return _keep(code, read_private(puzzle.position), puzzle)


def position(viewer: User | AnonymousUser, key: str) -> BoardPosition:
    """The row behind `key`, if `viewer` may see it now (its deal not in play; a puzzle's
    position only to who solved the puzzle)."""
    row = BoardPosition.objects.filter(pk=key).first()
    if row is None:
        raise PositionNotFound(f"There is no board position {key}.")
    if row.puzzle_id is not None and not (
        isinstance(viewer, User)
        and PuzzleAttempt.objects.filter(
            player=viewer, puzzle_id=row.puzzle_id, correct=True
        ).exists()
    ):
        raise PuzzleNotSolved("This position comes from a puzzle you have not solved yet.")
    boards.ensure_board_open(row.code)
    return row


def view(row: BoardPosition) -> dict[str, Any]:
    """The position as the table draws it (no face-down card named), with its legal moves."""
    public = public_form(read_private(row.position))
    return {
        "key": row.key,
        "code": row.code or None,
        **{
            name: public[name]
            for name in ("rule", "columns", "foundations", "cards_on_foundations", "won")
        },
        "legal_moves": public["legal_moves"],
    }


def play(viewer: User, key: str, move: str) -> BoardPosition:
    """The child position of a move on the board (refused as the rules refuse it)."""
    row = position(viewer, key)
    engine = read_private(row.position)
    engine.play(Move.parse(move))
    return _keep(row.code, engine, row.puzzle)


@dataclass(frozen=True)
class Judged:
    """What is known of a position's moves now; `done` once every legal move is judged."""

    done: bool
    moves: list[dict[str, Any]]
    line: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": "done" if self.done else "pending",
            "moves": self.moves,
            "line": self.line,
        }


def verdicts(viewer: User | AnonymousUser, key: str) -> Judged:
    """Every legal move of the position with its verdict so far; the first ask queues the
    judging on the task workers (once per position, whoever asks), and an ask finding it
    silent for `ANALYSIS_STALE_SECONDS` (its worker was killed) queues it again."""
    row = position(viewer, key)
    now = timezone.now()
    silent = now - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    wanted = Q(judging=BoardPosition.Judging.NONE) | Q(
        judging=BoardPosition.Judging.QUEUED, heartbeat_at__lt=silent
    )
    with transaction.atomic():
        if BoardPosition.objects.filter(wanted, pk=row.pk).update(
            judging=BoardPosition.Judging.QUEUED, heartbeat_at=now
        ):
            events.happened(events.BoardJudgingWanted(row.pk))
            row.judging = BoardPosition.Judging.QUEUED
    return _judged(row)


def _judged(row: BoardPosition) -> Judged:
    legal = [str(move) for move in read_private(row.position).legal_moves]
    moves = [
        {"move": move, "verdict": row.verdicts.get(move, "unknown"), "judged": move in row.verdicts}
        for move in legal
    ]
    return Judged(row.judging == BoardPosition.Judging.DONE, moves, list(row.line))


def judge(key: str) -> None:
    """The task workers' part: judge every legal move of the position, writing each verdict
    as it comes (a judging run twice, after a killed worker, skips what is written)."""
    row = BoardPosition.objects.filter(pk=key).first()
    if row is None or row.judging == BoardPosition.Judging.DONE:
        return
    engine = read_private(row.position)
    found = dict(row.verdicts)
    line = list(row.line)

    def write(done: bool = False) -> None:
        changes: dict[str, Any] = {"verdicts": found, "line": line, "heartbeat_at": timezone.now()}
        if done:
            changes["judging"] = BoardPosition.Judging.DONE
        BoardPosition.objects.filter(pk=key).update(**changes)

    judge_moves(engine, int(settings.BOARD_MOVE_NODES), found, line, write)
    write(done=True)
