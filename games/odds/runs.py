"""Measuring deals on the task workers: the sample in chunks (resumable), one deal on its own.

`enqueue_sample` queues the deals of a range that are neither measured at the budget nor
waiting in a queued chunk, so running it again after an interruption queues only what is
left. A chunk skips the deals measured meanwhile and writes each deal's row as it is done,
keyed: a chunk run twice (a worker killed and the command run again) rewrites, never adds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import events
from games.engine import Game, GameCode, Rule
from games.odds import keys
from games.odds.keys import KeyName
from games.odds.measures import NODE_BUDGET, measure, solver_version
from games.odds.models import DealResult

#: Deals per task: a chunk of Classic deals takes some seconds of a core, an Alaska one up to
#: about a minute, so a stopped worker loses little and progress shows often.
CHUNK_DEALS = 20
#: The task that measures a chunk (games.analysis.tasks.measure_deals), by its path: queued
#: chunks are found by it.
MEASURE_TASK = "games.analysis.tasks.measure_deals"


@dataclass(frozen=True)
class Plan:
    """What `enqueue_sample` found and queued for a range of deals."""

    wanted: int
    done: int
    waiting: int
    queued: int
    chunks: int


def _measured(fingerprint: str, rule: Rule, node_budget: int) -> QuerySet[DealResult]:
    """The deals of `rule` measured at `node_budget` under a key (queued ones are not)."""
    return DealResult.objects.filter(
        key=fingerprint, rule=rule.letter, node_budget=node_budget
    ).exclude(verdict="")


def _waiting(key: KeyName, rule: Rule, node_budget: int) -> set[int]:
    """Deal numbers in chunks already queued and not started (a started chunk that was
    killed leaves a RUNNING row forever: its deals are queued again, at worst twice)."""
    waiting: set[int] = set()
    queued = DBTaskResult.objects.filter(task_path=MEASURE_TASK, status="READY")
    for (args,) in queued.values_list("args_kwargs__args"):
        if args[0] == key and args[1] == rule.letter and args[3] == node_budget:
            waiting.update(args[2])
    return waiting


def enqueue_sample(
    rule: Rule,
    count: int,
    *,
    start: int = 0,
    node_budget: int = NODE_BUDGET,
    key: KeyName = "development",
    chunk: int = CHUNK_DEALS,
) -> Plan:
    """Queue deals `start` .. `start + count - 1` of `rule` for measuring, in chunks, but
    those already measured at `node_budget` or waiting in a queued chunk."""
    fingerprint = keys.fingerprint(keys.key_bytes(key))
    wanted = range(start, start + count)
    with transaction.atomic():
        measured = _measured(fingerprint, rule, node_budget).filter(
            number__gte=start, number__lt=start + count
        )
        # A deal measured for its own sake (a daily's grade) joins the sample as it is.
        measured.filter(sampled=False).update(sampled=True)
        done = set(measured.values_list("number", flat=True))
        waiting = _waiting(key, rule, node_budget) - done
        todo = [n for n in wanted if n not in done and n not in waiting]
        chunks = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
        events.happened(
            *(
                events.DealsMeasureWanted(key, rule.letter, numbers, node_budget)
                for numbers in chunks
            )
        )
    return Plan(len(wanted), len(done), len(waiting & set(wanted)), len(todo), len(chunks))


def measure_deals(
    key: KeyName, rule_letter: str, numbers: list[int], node_budget: int, *, sampled: bool = True
) -> int:
    """Measure each deal not measured yet at the budget and keep its row; how many were."""
    rule = Rule.from_letter(rule_letter)
    fingerprint = keys.fingerprint(keys.key_bytes(key))
    version = solver_version()
    solved = 0
    for number in numbers:
        if _measured(fingerprint, rule, node_budget).filter(number=number).exists():
            continue
        found = measure(Game.new(GameCode(rule, number), keys.key_bytes(key)), node_budget)
        DealResult.objects.update_or_create(
            key=fingerprint,
            rule=rule.letter,
            number=number,
            node_budget=node_budget,
            defaults=dict(
                verdict=found.verdict,
                nodes=found.nodes,
                line_length=found.line_length,
                openings=found.openings,
                winning_openings=found.winning_openings,
                losing_openings=found.losing_openings,
                opening_nodes=found.opening_nodes,
                cpu_seconds=round(found.cpu_seconds, 4),
                solver=version,
                computed_at=timezone.now(),
                **({"sampled": True} if sampled else {}),
            ),
        )
        solved += 1
    return solved
