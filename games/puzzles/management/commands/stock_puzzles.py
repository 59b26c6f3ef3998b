"""`manage.py stock_puzzles`: a fresh site's first public puzzles, mined from self-play deals
as it starts (`make run`, docker-compose's `migrate` job), within a time bound; the task
workers keep the stock from there (games.puzzles.stock). Quick when the stock is there."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.puzzles import stock


class Command(BaseCommand):
    help = "Mine self-play deals until COUNT public puzzles wait unused, for at most SECONDS."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--count",
            type=int,
            default=5,
            help="Unused public puzzles to have: the daily puzzle and a first deck (default 5).",
        )
        parser.add_argument(
            "--seconds",
            type=float,
            default=120.0,
            help="Stop starting new deals after this long (default 120); the workers go on.",
        )
        parser.add_argument(
            "--seed",
            default=None,
            help="Seed of the deals' rules and numbers (tests); unpredictable when left out. "
            "The cards stay secret either way: the self-play key comes from DEAL_KEY.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = options["count"]
        if count < 1:
            raise CommandError("--count must be at least 1.")
        seed = options["seed"]
        chooser = random.Random(seed) if seed is not None else random.SystemRandom()
        ready, mined = stock.stock_up(count, options["seconds"], chooser)
        self.stdout.write(f"{ready} public puzzle(s) ready, {mined} self-play deal(s) mined.")
