"""`manage.py purge_guests [--days 30]`: delete guests idle that long, with their games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import guest_purge


class Command(BaseCommand):
    help = "Delete guest players idle for --days days (no sign-in, game or move), with their games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=guest_purge.DEFAULT_IDLE_DAYS)

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if days < 1:
            raise CommandError("--days must be at least 1")
        count = guest_purge.purge(days)
        self.stdout.write(f"deleted {count} guests idle for {days} days or more")
