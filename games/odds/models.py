"""The solver's result on each measured deal, one row per (deal key, rule, deal, node budget).

A row is written whole by a task (`games.odds.runs.measure_deals`), keyed, so a task that
runs twice rewrites the same row. The sample the odds are published from is the deals a
`manage.py winnability` run measured (`sampled`); a deal measured for its own sake (a daily
deal's grade) is kept beside it but never counted in the sample.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from games.analysis.models import Verdict
from games.models import Game


class Grade(models.TextChoices):
    """How hard a proven-winnable deal is (games.odds.grades says from which measures)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class DealResult(models.Model):
    """One deal's opening solved within a node budget, and how many opening moves keep the win."""

    key = models.CharField(
        max_length=16,
        help_text="Which deal key dealt the cards: a fingerprint (games.odds.keys), never the key.",
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)
    number = models.BigIntegerField(help_text="The deal number (0 .. 26**7 - 1).")
    node_budget = models.PositiveIntegerField(help_text="Solver positions allowed for the deal.")
    verdict = models.CharField(
        max_length=12, choices=Verdict.choices, blank=True, help_text="Blank while queued."
    )
    nodes = models.PositiveIntegerField(default=0, help_text="Positions the solve entered.")
    line_length = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Moves of the winning line found (winnable only)."
    )
    openings = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Legal opening moves (winnable only)."
    )
    winning_openings = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Opening moves proven to keep the deal winnable."
    )
    losing_openings = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Opening moves proven to lose it."
    )
    opening_nodes = models.PositiveIntegerField(
        default=0, help_text="Positions the opening moves' solves entered, together."
    )
    cpu_seconds = models.FloatField(default=0.0, help_text="CPU seconds of all this deal's solves.")
    solver = models.CharField(
        max_length=16, blank=True, help_text="The engine sources' digest (games.engine.native)."
    )
    sampled = models.BooleanField(
        default=False, help_text="Part of the published sample (manage.py winnability)."
    )
    computed_at = models.DateTimeField(
        default=timezone.now, help_text="When it was solved (queued, while blank)."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["key", "rule", "number", "node_budget"], name="deal_result_once"
            ),
        ]
        indexes = [
            models.Index(
                fields=["key", "rule", "node_budget", "verdict"],
                condition=models.Q(sampled=True),
                name="deal_result_sample",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rule} deal {self.number} at {self.node_budget} nodes: {self.verdict}"
