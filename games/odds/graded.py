"""Grades in use: dealing a proven-winnable deal of a chosen grade, and a daily deal's grade.

Both read the deployment key's rows only: a deal number is other cards under another key.
A graded new game comes from the sample measured with that key (`manage.py winnability
--key deployment`; under the development settings it is the published sample), never from
a deal measured for a daily's grade, whose code stays secret while its day runs.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import events
from games.analysis.models import Verdict
from games.engine import Rule
from games.errors import ServiceError
from games.odds import grades, keys
from games.odds.measures import NODE_BUDGET
from games.odds.models import DealResult, Grade

#: A daily's grade queued this long ago and still not there was lost with its worker: queue
#: it again.
GRADE_REQUEUE_AFTER = timedelta(minutes=10)


class NoGradedDeal(ServiceError):
    """No deal of the asked grade has been measured with this deployment's key yet."""

    code = "no-graded-deal"
    status = 503
    message = _("No deal of this difficulty has been proven winnable for this rule yet.")


def graded_number(rule: Rule, grade: str) -> int:
    """A random proven-winnable deal number of `grade` under `rule`."""
    rows = DealResult.objects.filter(
        key=keys.deployment(), node_budget=NODE_BUDGET, sampled=True
    ).filter(grades.condition(rule.letter, grade))
    number = rows.order_by("?").values_list("number", flat=True).first()
    if number is None:
        raise NoGradedDeal(f"No {grade} {rule.name} deal has been proven winnable yet.")
    return number


def day_grade(rule: Rule, number: int) -> str | None:
    """A daily deal's grade, or None while a worker works it out (queued on the first ask).

    A daily deal is proven winnable when it is chosen; one the grading budget leaves
    undecided needed a longer search than any graded deal, so it is hard.
    """
    with transaction.atomic():
        row, created = DealResult.objects.get_or_create(
            key=keys.deployment(), rule=rule.letter, number=number, node_budget=NODE_BUDGET
        )
        lost = not row.verdict and row.computed_at < timezone.now() - GRADE_REQUEUE_AFTER
        if created or lost:
            if lost:
                DealResult.objects.filter(pk=row.pk).update(computed_at=timezone.now())
            events.happened(events.DealGradeWanted(rule.letter, number, NODE_BUDGET))
    if row.verdict == Verdict.UNKNOWN:
        return Grade.HARD
    if not row.verdict:
        return None
    graded = DealResult.objects.filter(pk=row.pk).annotate(grade=grades.expression())
    grade: str | None = graded.values_list("grade", flat=True).get()
    return grade
