"""Post-game analysis jobs: queued when a game ends, run in chunks by the task workers.

One `GameAnalysis` row per game is the job and its lock: a worker claims it under a row
lock and keeps a heartbeat while it solves, so no game is analysed by two workers at once;
a claim whose heartbeat went quiet (its worker was killed) is requeued by `recover`.
Verdicts are written keyed by (game, version), so a retried chunk rewrites, never adds.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import days, deals, events
from games.analysis import turning
from games.analysis.models import GameAnalysis, PositionVerdict
from games.analysis.positions import Finding, LogPositions, conclude
from games.engine import GameCode, Move, public_form
from games.engine.lines import without_loops
from games.engine.solver import SolveResult, solve
from games.fairness import visibility
from games.models import Game

#: The task that runs `run_step` (games.analysis.tasks.analyse_game), by its path: `recover`
#: looks for its queued runs (tests/analysis/test_analysis.py checks the path).
ANALYSE_TASK = "games.analysis.tasks.analyse_game"


def _enqueue_step(game_id: int) -> None:
    events.happened(events.AnalysisWanted(game_id))


def enqueue(game: Game) -> None:
    """Queue the analysis of a game that just ended (inside its transaction; once per game)."""
    _, created = GameAnalysis.objects.get_or_create(
        game=game, defaults={"node_budget": settings.ANALYSIS_POSITION_NODES}
    )
    if created:
        _enqueue_step(game.pk)


def _stale_before() -> Any:
    return timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)


def _claim(game_id: int, worker: str) -> GameAnalysis | None:
    """Take the job for `worker`; None when it is done or another live worker holds it."""
    with transaction.atomic():
        job = GameAnalysis.objects.select_for_update().filter(game_id=game_id).first()
        if job is None or job.status == GameAnalysis.Status.DONE:
            return None
        held = job.status == GameAnalysis.Status.RUNNING and job.worker != worker
        if held and job.heartbeat_at is not None and job.heartbeat_at >= _stale_before():
            return None
        job.status = GameAnalysis.Status.RUNNING
        job.worker = worker
        job.heartbeat_at = timezone.now()
        job.attempts += 1
        job.save(update_fields=["status", "worker", "heartbeat_at", "attempts"])
    return job


def _still_mine(job: GameAnalysis) -> bool:
    """Beat the heart; False when the claim was taken over (this worker looked dead)."""
    return (
        GameAnalysis.objects.filter(pk=job.pk, worker=job.worker, status=job.Status.RUNNING).update(
            heartbeat_at=timezone.now()
        )
        == 1
    )


def log_positions(game: Game) -> tuple[LogPositions, list[str]]:
    """The game's positions (version 0: the deal) and each log entry's kind."""
    entries = list(game.log.order_by("seq").values_list("text", "kind"))
    start = deals.new_game(GameCode.parse(game.code))
    return LogPositions(start, [text for text, _ in entries]), [kind for _, kind in entries]


def _stored(job: GameAnalysis, positions: LogPositions) -> bool:
    """Learn what earlier chunks stored; False when nothing was stored yet."""
    rows = list(PositionVerdict.objects.filter(game_id=job.pk))
    for row in rows:
        positions.learn(
            row.version,
            Finding(row.verdict, row.reason, row.nodes, row.move, row.distance),
        )
    return bool(rows)


def _write(job: GameAnalysis, positions: LogPositions) -> None:
    rows = []
    for version in range(positions.last_version + 1):
        found = positions.finding(version)
        if found is not None:
            rows.append(
                PositionVerdict(
                    game_id=job.pk,
                    version=version,
                    verdict=found.verdict,
                    reason=found.reason,
                    nodes=found.nodes,
                    move=found.move,
                    distance=found.distance,
                )
            )
    PositionVerdict.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["game", "version"],
        update_fields=["verdict", "reason", "nodes", "move", "distance"],
    )


class _ClaimLost(Exception):
    """Another worker took the job over (this one looked dead): stop at once."""


def _search_turning_point(
    job: GameAnalysis, game: Game, positions: LogPositions, kinds: list[str]
) -> str:
    """Where the win was lost (games.analysis.turning): found first, with a handful of solves
    at rising budgets, before the strip of every position is filled in. Returns its kind."""

    def solve_at(version: int, nodes: int) -> None:
        positions.solve(version, lambda private: solve(private, node_budget=nodes))
        if not _still_mine(job):
            raise _ClaimLost

    turn = turning.find(positions, kinds, solve_at, job.node_budget)
    job.turning = turn.kind
    if turn.kind == "lost" and turn.version is not None:
        before = deals.replayed(game, _texts(game)[: turn.version - 1])
        result = solve(before, node_budget=job.node_budget * turning.ESCALATION[-1])
        line = without_loops(before, result.line) if result.verdict == "winnable" else []
        job.losing_version = turn.version if line else None
        job.turning_line = [str(move) for move in line]
        job.better_move = job.turning_line[0] if line else ""
        if not line:
            job.turning = "unknown"
    return job.turning


def _texts(game: Game) -> list[str]:
    return list(game.log.order_by("seq").values_list("text", flat=True))


def run_step(game_id: int, worker: str) -> bool:
    """Solve up to a chunk of the game's undecided positions; True when more remains (requeued).

    A lost game's turning point is searched first (its own step), so it shows long before
    every position's verdict does.
    """
    job = _claim(game_id, worker)
    if job is None:
        return False
    game = Game.objects.get(pk=game_id)
    positions, kinds = log_positions(game)
    fresh = not _stored(job, positions)
    if not job.turning and game.status != Game.Status.WON:
        try:
            turning = _search_turning_point(job, game, positions, kinds)
        except _ClaimLost:
            return False
        with transaction.atomic():
            if not _still_mine(job):
                return False
            _write(job, positions)  # its verdicts and the turning point show together
            GameAnalysis.objects.filter(pk=job.pk).update(
                status=GameAnalysis.Status.QUEUED,
                worker="",
                queued_at=timezone.now(),
                turning=job.turning,
                turning_line=job.turning_line,
                losing_version=job.losing_version,
                better_move=job.better_move,
            )
            _enqueue_step(game_id)
            if turning == "lost":  # its puzzles are mined (games.puzzles.mining)
                events.happened(events.PuzzleMiningWanted(game_id))
        return True
    # A won game decides every position by itself: solve the deal once for the best line.
    todo = [0] if fresh and game.status == Game.Status.WON else positions.unsolved()

    def solver(private: Mapping[str, Any]) -> SolveResult:
        return solve(private, node_budget=job.node_budget)

    for version in todo[: settings.ANALYSIS_CHUNK_POSITIONS]:
        positions.solve(version, solver)
        if not _still_mine(job):
            return False
    with transaction.atomic():
        if not _still_mine(job):
            return False
        _write(job, positions)
        if positions.unsolved():
            GameAnalysis.objects.filter(pk=job.pk).update(
                status=GameAnalysis.Status.QUEUED, worker="", queued_at=timezone.now()
            )
            _enqueue_step(game_id)
            return True
        found = conclude(positions, kinds)
        GameAnalysis.objects.filter(pk=job.pk).update(
            status=GameAnalysis.Status.DONE,
            worker="",
            shortest_line=found.shortest_line,
            finished_at=timezone.now(),
        )
    return False


def recover() -> int:
    """Requeue jobs a dead worker left: running with a stale heartbeat, or queued long ago
    with no task waiting for them. Returns how many were requeued."""
    stale = _stale_before()
    requeued = 0
    candidates = GameAnalysis.objects.filter(
        status=GameAnalysis.Status.RUNNING, heartbeat_at__lt=stale
    ) | GameAnalysis.objects.filter(status=GameAnalysis.Status.QUEUED, queued_at__lt=stale)
    for game_id in candidates.values_list("game_id", flat=True):
        with transaction.atomic():
            job = (
                GameAnalysis.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
            )
            if job is None or job.status == GameAnalysis.Status.DONE:
                continue
            waiting = DBTaskResult.objects.filter(
                task_path=ANALYSE_TASK,
                status__in=["READY", "RUNNING"],
                args_kwargs__args=[game_id],
            ).exclude(status="RUNNING", started_at__lt=stale)
            if job.status == GameAnalysis.Status.QUEUED and waiting.exists():
                continue
            job.status = GameAnalysis.Status.QUEUED
            job.worker = ""
            job.queued_at = timezone.now()
            job.save(update_fields=["status", "worker", "queued_at"])
            _enqueue_step(game_id)
            requeued += 1
    return requeued


def enqueue_ended_arenas() -> int:
    """Queue the analysis of games whose arena has ended (their analyses wait for that end:
    games.endings), a hundred a round."""
    ended = Game.objects.filter(
        origin=Game.Origin.ARENA, race_hidden=False, analysis__isnull=True
    ).exclude(status=Game.Status.ACTIVE)
    queued = 0
    for game in ended.defer("state")[:100]:
        with transaction.atomic():
            enqueue(game)
        queued += 1
    return queued


def enqueue_closed_dailies() -> int:
    """Queue the analysis of daily games left unfinished when their day closed."""
    closed = Game.objects.filter(
        status=Game.Status.ACTIVE, daily_date__lt=days.today(), analysis__isnull=True
    )
    queued = 0
    for game in closed.defer("state")[:100]:
        with transaction.atomic():
            enqueue(game)
        queued += 1
    return queued


def report(game: Game) -> dict[str, Any]:
    """The analysis as the API serves it: pending, partial or done."""
    job = GameAnalysis.objects.filter(game=game).first()
    last_version = game.log.order_by("-seq").values_list("version", flat=True).first() or 0
    verdicts = {row.version: row for row in PositionVerdict.objects.filter(game=game)}
    if job is None:
        status = "pending" if game.is_finished else "not-finished"
    elif job.status == job.Status.DONE:
        status = "done"
    else:
        status = "partial" if verdicts else "pending"
    answer: dict[str, Any] = {
        "status": status,
        "last_version": last_version,
        "node_budget": job.node_budget if job is not None else settings.ANALYSIS_POSITION_NODES,
        "verdicts": [
            {
                "version": version,
                "verdict": row.verdict,
                "reason": row.reason or None,
            }
            for version, row in sorted(verdicts.items())
        ],
        "losing_move": None,
        "turning": _turning(game, job),
        "turning_point": None,
        "extra_moves": None,
        "shortest_line": None,
    }
    if job is not None and job.turning == "lost":
        answer["losing_move"] = _losing_move(game, job)
        answer["turning_point"] = _turning_point(game, job)
    if job is not None and job.status == job.Status.DONE:
        answer["shortest_line"] = job.shortest_line
        if game.status == Game.Status.WON and job.shortest_line is not None:
            answer["extra_moves"] = max(game.move_count - job.shortest_line, 0)
    return answer


def _turning(game: Game, job: GameAnalysis | None) -> str:
    """What the search for the turning point concluded (`pending` while it runs)."""
    if game.status == Game.Status.WON:
        return "not-lost"
    return job.turning if job is not None and job.turning else "pending"


def _turning_point(game: Game, job: GameAnalysis) -> dict[str, Any] | None:
    """The move after which the game could no longer be won, and a winning line from the
    position before it (the better way) with the board after each of its moves.

    The line turns up cards that were face down: while the deal is secret (today's daily,
    a running race: `visibility.solver_line_shown`) it is left out (`null`), and shows once
    the deal is no longer played."""
    if job.losing_version is None:
        return None
    texts = _texts(game)
    secret = not visibility.solver_line_shown(game)
    before = deals.replayed(game, texts[: job.losing_version - 1])
    return {
        "version": job.losing_version,
        "move": texts[job.losing_version - 1],
        "line": None if secret else job.turning_line,
        "steps": None if secret else deals.public_steps(before, job.turning_line)[1:],
    }


def _losing_move(game: Game, job: GameAnalysis) -> dict[str, Any] | None:
    """The losing move, the better one, and the board after the better one."""
    if job.losing_version is None:
        return None
    texts = _texts(game)
    engine = deals.replayed(game, texts[: job.losing_version - 1])
    before = public_form(engine)
    engine.play(Move.parse(job.better_move))
    return {
        "version": job.losing_version,
        "move": texts[job.losing_version - 1],
        "better_move": job.better_move,
        "better_board": _unturned(before, public_form(engine)),
    }


def _unturned(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The board after a move that was never played, with the card it turned up still hidden:
    face-down cards are never named, the analysis's better move included."""
    columns = []
    for old, new in zip(before["columns"], after["columns"], strict=True):
        if new["face_down"] < old["face_down"]:
            new = {"face_down": new["face_down"] + 1, "face_up": new["face_up"][1:]}
        columns.append(new)
    return {
        "columns": columns,
        "foundations": after["foundations"],
        "score": after["score"],
        "move_count": after["move_count"],
    }
