"""`manage.py purge_play_sources [--days FAIR_PLAY_DAYS]`: forget where accounts played from."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import play_sources


class Command(BaseCommand):
    help = "Delete the fair-play list's play sources older than --days days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=settings.FAIR_PLAY_DAYS)

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if days < 1:
            raise CommandError("--days must be at least 1")
        count = play_sources.purge(days)
        self.stdout.write(f"deleted {count} play sources older than {days} days")
