"""What each event means: the pushes it sends and the tasks it queues (`games.events`).

Pushes are built by `games.pushes` and go out once the transaction commits (a rolled-back
change tells nobody). Tasks are queued within the transaction, so a task row and the
change that wants it commit or vanish together (the task queue is the database).
"""

from __future__ import annotations

from games import pushes
from games.analysis import tasks
from games.events import (
    AnalysisWanted,
    AssistAnswered,
    BoardJudgingWanted,
    DealGradeWanted,
    DealLineWanted,
    DealsMeasureWanted,
    Event,
    ExportWanted,
    GameDiscarded,
    GameEnded,
    GameStarted,
    HintSolveWanted,
    Moved,
    PuzzleMiningWanted,
    PuzzleStockWanted,
    RaceChanged,
    RaceProgressed,
    Undone,
)


def apply(event: Event) -> None:
    match event:
        case GameStarted(game):
            pushes.game_started(game)
        case GameDiscarded(game_id, listed):
            if listed:
                pushes.game_removed(game_id)
        case Moved(game, result, kind, intent, state):
            pushes.moved(game, result, kind=kind, intent=intent, state=state)
        case Undone(game, move, state):
            pushes.undone(game, move, state=state)
        case GameEnded(game, state):
            pushes.finished(game, state)
        case RaceChanged(race):
            pushes.race_changed(race)
        case RaceProgressed(room, version, racer, server_now):
            pushes.race_progress(room, version, racer, server_now)
        case AssistAnswered(game_id, question, answer):
            pushes.assist_answered(game_id, question, answer)
        case AnalysisWanted(game_id):
            tasks.analyse_game.enqueue(game_id)
        case HintSolveWanted(game_id, version, seconds):
            tasks.solve_for_hint.enqueue(game_id, version, seconds)
        case BoardJudgingWanted(key):
            tasks.judge_board_position.enqueue(key)
        case DealLineWanted(code):
            tasks.solve_deal.enqueue(code)
        case PuzzleMiningWanted(game_id):
            tasks.mine_game_puzzles.enqueue(game_id)
        case PuzzleStockWanted():
            tasks.mine_self_play_deal.enqueue()
        case DealsMeasureWanted(key, rule, numbers, node_budget):
            tasks.measure_deals.enqueue(key, rule, numbers, node_budget)
        case DealGradeWanted(rule, number, node_budget):
            tasks.grade_deal.enqueue(rule, number, node_budget)
        case ExportWanted(export_id):
            tasks.build_export.enqueue(export_id)
