"""`manage.py winnability`: queue the published sample's deals for the task workers.

    manage.py winnability --deals 10000            # deals 0..9999 of every rule
    manage.py winnability --rule C --deals 2000    # one rule
    manage.py worker --queue-name odds             # one per core to spare, niced

Deals already measured at the budget, or waiting in a queued chunk, are left out, so the
command resumes an interrupted run: run it again with the same arguments.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import RULES, Rule
from games.odds.keys import KEY_NAMES
from games.odds.measures import NODE_BUDGET
from games.odds.runs import CHUNK_DEALS, enqueue_sample


class Command(BaseCommand):
    help = "Queue the deals of the published winnability sample not measured yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rule",
            action="append",
            choices=sorted(RULES),
            help="a rule letter (repeatable; default: every rule)",
        )
        parser.add_argument("--deals", type=int, default=1000, help="deals per rule (1000)")
        parser.add_argument("--start", type=int, default=0, help="the first deal number (0)")
        parser.add_argument(
            "--nodes",
            type=int,
            default=NODE_BUDGET,
            help=f"solver positions per deal ({NODE_BUDGET}: the published budget)",
        )
        parser.add_argument(
            "--key",
            choices=KEY_NAMES,
            default="development",
            help="deal with the public development key (the published sample, the default) "
            "or this deployment's (the deals graded new games are dealt from)",
        )
        parser.add_argument(
            "--chunk", type=int, default=CHUNK_DEALS, help=f"deals per task ({CHUNK_DEALS})"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["deals"] < 1 or options["start"] < 0 or options["chunk"] < 1:
            raise CommandError("--deals and --chunk must be positive, --start not negative")
        if options["nodes"] < 1:
            raise CommandError("--nodes must be positive")
        letters = options["rule"] or list(RULES)
        queued = 0
        for letter in letters:
            plan = enqueue_sample(
                Rule.from_letter(letter),
                options["deals"],
                start=options["start"],
                node_budget=options["nodes"],
                key=options["key"],
                chunk=options["chunk"],
            )
            queued += plan.chunks
            self.stdout.write(
                f"{letter}: {plan.wanted} deals, {plan.done} measured, {plan.waiting} waiting, "
                f"{plan.queued} queued now in {plan.chunks} chunks"
            )
        if queued:
            self.stdout.write(
                "Run `manage.py worker --queue-name odds` (one per core to spare) to measure them."
            )
