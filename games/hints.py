"""Solver-backed assists: a hint (next move of a winning line) and "can this still be won?".

Both read the face-down cards, so both mark the game as assisted (ranked apart on
the daily board). A request never runs the solver: it answers at once from the game's
kept line (`HintLine`) when the player has kept to it, and otherwise queues the solve
on the task workers, whose answer is pushed to the owner on the game's feed. Keeping to
one line is what makes hints lead to a win: solving afresh after every move can pick a
different line each time and walk in circles; and a line never goes back to a position
it was in (`games.engine.lines.without_loops`).

A hint never dead-ends: when the solve runs out of time, every legal move's position is
searched on a small budget, so a hint is the proven line's next move, or (`proven:
false`) the most promising move nothing refuted, while a longer solve goes on and a
later answer improves. "No hint" is only for a position proven lost (or with no move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import deals, events
from games.analysis.models import HintLine
from games.daily import ensure_playable
from games.engine import Game as EngineGame
from games.engine import Move
from games.engine.lines import without_loops
from games.engine.solver import solve
from games.errors import GameFinished, GameNotFound, NotYourGame
from games.fairness.solver_help import ensure_assist_allowed
from games.models import Game, MoveLogEntry

type Question = Literal["hint", "winnability"]

#: Player-facing wording of the solver's verdicts.
STATUS_OF_VERDICT = {
    "winnable": "winnable",
    "unwinnable": "no-longer-winnable",
    "unknown": "unknown",
}


@dataclass(frozen=True)
class Answer:
    """The solver's answer for the game at `version` (`move`: the hint, when winnable)."""

    version: int
    question: Question
    verdict: str
    move: str | None
    reason: str | None
    nodes: int
    seconds: float
    proven: bool = True

    def to_dict(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "version": self.version,
            "status": STATUS_OF_VERDICT[self.verdict],
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "proven": self.proven,
        }
        if self.question == "hint":
            answer["move"] = self.move
        return answer


@dataclass(frozen=True)
class Pending:
    """The solve is queued: its answer comes as a push on the game's feed."""

    game_id: int
    version: int
    question: Question

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "status": "pending",
            "push": self.question,
            "feed": f"/ws/v1/games/{self.game_id}/",
        }


def _owned_active_game(player: User, game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).defer("state").first()
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    if game.owner_id != player.pk:
        raise NotYourGame(f"Game {game_id} belongs to another player.")
    if game.is_finished:
        raise GameFinished(f"Game {game_id} is over: there is nothing left to win.")
    ensure_playable(game)
    ensure_assist_allowed(player, game)
    return game


def _from_kept(kept: HintLine, game: Game, question: Question) -> Answer | None:
    """The answer the kept solve gives for the game now, if the player kept to its line.

    A winning line is followed move by move; an unwinnable verdict stands after any
    moves (no move makes a lost position winnable); any undo breaks both. Only the log
    entries after `followed_to` are read, so following a long line costs the same per move.
    """
    if kept.pending or not kept.verdict or kept.version > game.version:
        return None
    checked = max(kept.followed_to, kept.version)
    entries = list(
        MoveLogEntry.objects.filter(game=game, version__gt=checked)
        .order_by("seq")
        .values_list("kind", "text")
    )
    if any(kind == MoveLogEntry.Kind.UNDO for kind, _ in entries):
        return None
    reason = kept.reason or None
    moved = checked > kept.version or bool(entries)
    if kept.verdict == "winnable":
        done = checked - kept.version
        played = [text for _, text in entries]
        if played != kept.moves[done : done + len(played)] or done + len(played) >= len(kept.moves):
            return None
        move: str | None = kept.moves[done + len(played)]
    elif kept.verdict == "unwinnable":
        move = None
    elif not moved:  # unknown: the best guess its search found, if any (not proven)
        move = kept.moves[0] if kept.moves else None
    else:
        return None  # unknown at an earlier version says nothing of this one
    if entries:
        HintLine.objects.filter(pk=kept.pk).update(followed_to=game.version)
    nodes = 0 if moved else kept.nodes
    seconds = 0.0 if moved else kept.seconds
    proven = kept.verdict != "unknown"
    return Answer(game.version, question, kept.verdict, move, reason, nodes, seconds, proven)


def ask(player: User, game_id: int, question: Question) -> Answer | Pending:
    """Answer from the kept line, or queue a solve of the current position (once per version)."""
    game = _owned_active_game(player, game_id)
    if not game.assisted:
        Game.objects.filter(pk=game.pk).update(assisted=True)
    with transaction.atomic():
        kept, created = HintLine.objects.select_for_update().get_or_create(
            game=game,
            defaults={
                "version": game.version,
                "followed_to": game.version,
                "questions": [question],
            },
        )
        answer = None if created else _from_kept(kept, game, question)
        if answer is not None:
            return answer
        if not created and kept.pending and kept.version == game.version:
            if question not in kept.questions:
                kept.questions = [*kept.questions, question]
                kept.save(update_fields=["questions"])
            return Pending(game.pk, game.version, question)
        if not created:
            kept.version = kept.followed_to = game.version
            kept.pending = True
            kept.questions = [question]
            kept.verdict = ""
            kept.moves = []
            kept.updated_at = timezone.now()
            kept.save()
        events.happened(
            events.HintSolveWanted(game.pk, game.version, float(settings.SOLVER_ASSIST_SECONDS))
        )
    return Pending(game.pk, game.version, question)


#: Solver positions each legal move's position gets when the position itself stayed unknown.
MOVE_PROBE_NODES = 20_000
#: The probes' time together, as a share of the solve's: a hint's answer takes at most
#: (1 + PROBE_SHARE) times its budget on the worker.
PROBE_SHARE = 0.5
#: The longer solve after an unproven answer: this many times the assist's budget.
DEEPER = 5


@dataclass(frozen=True)
class Found:
    """A hint solve's outcome: the verdict, a line (a win, or one unproven best guess)."""

    verdict: str
    line: list[str]
    reason: str | None
    nodes: int
    seconds: float
    proven: bool


def search(engine: EngineGame, seconds: float) -> Found:
    """Solve the position within `seconds`; if that stays unknown, look one move deeper
    (within `PROBE_SHARE` of `seconds` more): a move whose position is proven winnable gives
    a proven line, every move proven lost proves the position lost, and else the most
    promising move nothing refuted (unprobed ones included) is the guess."""
    result = solve(engine, time_budget=seconds)
    line = [str(move) for move in without_loops(engine, result.line)]
    if result.verdict != "unknown":
        return Found(result.verdict, line, None, result.nodes, result.seconds, True)
    nodes, elapsed, open_moves = result.nodes, result.seconds, []
    left = seconds * PROBE_SHARE
    for move in sorted(engine.legal_moves, key=lambda move: _promise(engine, move)):
        if left <= 0:
            open_moves.append(move)
            continue
        child = engine.copy()
        child.play(move)
        probe = solve(child, node_budget=MOVE_PROBE_NODES, time_budget=left)
        nodes, elapsed, left = nodes + probe.nodes, elapsed + probe.seconds, left - probe.seconds
        if probe.verdict == "winnable":
            won = without_loops(engine, [move, *probe.line])
            return Found("winnable", [str(m) for m in won], None, nodes, elapsed, True)
        if probe.verdict == "unknown":
            open_moves.append(move)
    if not open_moves:  # no move, or every move proven lost: the position is lost
        return Found("unwinnable", [], None, nodes, elapsed, True)
    return Found("unknown", [str(open_moves[0])], result.reason, nodes, elapsed, False)


def _promise(engine: EngineGame, move: Move) -> tuple[int, int]:
    """Which unrefuted move to offer first: one that turns up a face-down card, then one to
    a foundation, then the rest (smaller is more promising)."""
    child = engine.copy()
    result = child.play(move)
    return (0 if result.turned_up is not None else 1, 0 if result.to_foundation else 1)


def solve_queued(game_id: int, version: int, seconds: float) -> None:
    """The task workers' part: search the game at `version`, keep the answer, push it; an
    answer that could not be proven queues a longer search, whose proof replaces it.

    A game that moved on (or ended) meanwhile is left alone: its next ask queues anew.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.is_finished or game.version != version:
        return
    found = search(deals.current(game), seconds)
    with transaction.atomic():
        kept = HintLine.objects.select_for_update().filter(game=game, version=version).first()
        deeper = kept is not None and not kept.pending and not kept.proven
        if kept is None or not (kept.pending or (deeper and found.proven)):
            return
        kept.pending = False
        kept.verdict = found.verdict
        kept.reason = found.reason or ""
        kept.moves = found.line
        kept.proven = found.proven
        kept.nodes = found.nodes
        kept.seconds = found.seconds
        kept.updated_at = timezone.now()
        kept.save()
        for question in kept.questions:
            answer = _from_kept(kept, game, question)
            assert answer is not None
            events.happened(events.AssistAnswered(game.pk, question, answer.to_dict()))
        if not found.proven:
            longer = float(settings.SOLVER_ASSIST_SECONDS) * DEEPER
            events.happened(events.HintSolveWanted(game.pk, version, longer))
