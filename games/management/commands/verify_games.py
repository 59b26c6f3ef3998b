"""`manage.py verify_games`: replay every stored game; exit 1 on any difference."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.verification import verify_all


class Command(BaseCommand):
    help = "Replay every game's move log and compare it with the stored snapshot."

    def handle(self, *args: Any, **options: Any) -> None:
        mismatches = list(verify_all())
        for mismatch in mismatches:
            self.stderr.write(f"game {mismatch.game_id}: {mismatch.problem}")
        total = Game.objects.count()
        if mismatches:
            raise CommandError(f"{len(mismatches)} of {total} games differ from their logs")
        self.stdout.write(f"all {total} games match their logs")
