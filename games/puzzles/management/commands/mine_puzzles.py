"""`manage.py mine_puzzles`: add public puzzles by hand, from the server's self-play deals
(dealt under the self-play key, so nobody can look them up). Each deal is played along the
solver's line and its positions with 3 plausible moves or more are tried; see
games.puzzles.mining for the budgets, games.puzzles.stock for the automatic stock."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engine import RULES, Rule
from games.puzzles import mining


class Command(BaseCommand):
    help = "Mine public puzzles from self-play deals until COUNT are kept (or --max-deals tried)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("count", type=int, help="Puzzles to keep.")
        parser.add_argument(
            "--rule",
            default="C",
            help="The rule letter of the deals: C (default), R, U or A.",
        )
        parser.add_argument(
            "--seed",
            default=None,
            help="Seed of the deal numbers (reproducible runs); unpredictable when left out. "
            "The cards stay secret either way: the self-play key comes from DEAL_KEY.",
        )
        parser.add_argument(
            "--max-deals",
            type=int,
            default=None,
            help="Stop after this many deals even if fewer puzzles were found "
            "(default: 50 per puzzle asked for).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = options["count"]
        if count < 1:
            raise CommandError("COUNT must be at least 1.")
        letter = str(options["rule"]).upper()
        if letter not in RULES:
            raise CommandError(f"Unknown rule {options['rule']!r}: one of {', '.join(RULES)}.")
        rule: Rule = RULES[letter]
        seed = options["seed"]
        chooser = random.Random(seed) if seed is not None else random.SystemRandom()
        max_deals = options["max_deals"] or 50 * count
        kept, tried = mining.mine_deals(count, rule, chooser, max_deals)
        for puzzle in kept:
            self.stdout.write(
                f"puzzle {puzzle.pk}: {puzzle.rule}, difficulty {puzzle.difficulty}, "
                f"{len(puzzle.solution)} move(s), {puzzle.legal_moves} legal, "
                f"{puzzle.face_down} face down"
            )
        self.stdout.write(f"{len(kept)} puzzle(s) kept from {tried} deal(s).")
