"""The background tasks (django.tasks, stored by django-tasks-db, run by `manage.py worker`).

Each task is a thin call into a service: the services own the locking and the writes, so
a task that runs twice (a retry after a killed worker) does no harm.
"""

from __future__ import annotations

from typing import Any

from django.tasks import TaskContext, task

from games import exports, hints
from games.analysis import board, deal_lines, jobs
from games.odds import runs
from games.odds.keys import KeyName
from games.puzzles import mining, stock

#: Hints are waited for by a player: they go before any analysis chunk.
ASSIST_PRIORITY = 50
#: A board's judging is waited for too, but after the hints of games in play.
BOARD_PRIORITY = 40
#: Restocking the public puzzles waits for every game's analysis and mining.
STOCK_PRIORITY = -10
#: The sample's chunks wait for everything else a worker serving their queue is asked.
ODDS_PRIORITY = -50


def _worker(context: TaskContext[Any, Any]) -> str:
    """The id of the worker running the task (django-tasks-db appends one per run)."""
    ids = context.task_result.worker_ids
    return ids[-1] if ids else "immediate"


@task(takes_context=True, queue_name="analysis")
def analyse_game(context: TaskContext[Any, Any], game_id: int) -> bool:
    """One chunk of a finished game's analysis; it requeues itself until the game is done."""
    return jobs.run_step(game_id, _worker(context))


@task(queue_name="assists", priority=ASSIST_PRIORITY)
def solve_for_hint(game_id: int, version: int, seconds: float) -> None:
    """Solve a game's position for its owner's hint and push the answer to the game's feed."""
    hints.solve_queued(game_id, version, seconds)


@task(queue_name="assists", priority=BOARD_PRIORITY)
def judge_board_position(key: str) -> None:
    """Judge every legal move of an analysis board's position (a viewer waits for them)."""
    board.judge(key)


@task(queue_name="analysis")
def solve_deal(code: str) -> None:
    """Find and keep a winning line of a deal (a closed daily deal's page offers it)."""
    deal_lines.solve(code)


@task(queue_name="analysis")
def mine_game_puzzles(game_id: int) -> int:
    """Find the puzzles of a lost game's turning point (games.puzzles.mining)."""
    return mining.mine_game(game_id)


@task(queue_name="analysis", priority=STOCK_PRIORITY)
def mine_self_play_deal() -> int:
    """Mine one self-play deal for the public puzzles (queued while the stock is low by the
    worker's janitor: games.puzzles.stock); how many puzzles it gave."""
    return len(stock.mine_one(stock.chooser()))


@task(queue_name="odds", priority=ODDS_PRIORITY)
def measure_deals(key: KeyName, rule: str, numbers: list[int], node_budget: int) -> None:
    """Measure a chunk of the published sample (`manage.py winnability`); its own queue, which
    only the workers started for it serve (`manage.py worker --queue-name odds`)."""
    runs.measure_deals(key, rule, numbers, node_budget)


@task(queue_name="analysis")
def grade_deal(rule: str, number: int, node_budget: int) -> None:
    """Measure one deal of this deployment's key for its grade (a daily deal shows it)."""
    runs.measure_deals("deployment", rule, [number], node_budget, sampled=False)


@task(queue_name="assists")
def build_export(export_id: int) -> None:
    """Build a player's "Download my data" archive (games.exports); after the hints."""
    exports.build(export_id)
