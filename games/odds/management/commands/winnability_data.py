"""`manage.py winnability_data load|dump`: the published sample to and from its file in git."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.odds import dataset


class Command(BaseCommand):
    help = "Load the committed winnability sample into the database, or dump it back."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["load", "dump"])
        parser.add_argument(
            "--path", type=Path, default=dataset.DATASET, help="the gzipped CSV (the committed one)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        if options["action"] == "dump":
            self.stdout.write(f"{dataset.dump(path)} deals written to {path}")
            return
        loaded = dataset.load(path)
        self.stdout.write(f"{loaded} deals loaded from {path}" if loaded else "sample up to date")
