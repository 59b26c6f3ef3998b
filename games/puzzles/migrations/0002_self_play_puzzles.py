"""Public puzzles come only from the server's self-play; a game's puzzles are its owner's.

Existing puzzles (docs/puzzles.md, "Where puzzles come from"):

- a puzzle mined from a game stays, in its owner's deck only: other players' cards of it go
  (the game's public analysis tells its answer);
- a puzzle from a solver deal of a code anyone could open is retired: served to nobody, its
  cards go;
- today's and later daily puzzles that are not self-play are forgotten, to be chosen again
  from the self-play pool (past days stay as they were);
- every puzzle gets its count of plausible moves.
"""

from typing import Any

from django.db import migrations, models
from django.db.models import F, Q
from django.utils import timezone

from games.engine import read_private
from games.puzzles.proof import plausible_moves


def forward(apps: Any, schema_editor: Any) -> None:
    Puzzle = apps.get_model("puzzles", "Puzzle")
    PuzzleCard = apps.get_model("puzzles", "PuzzleCard")
    DailyPuzzle = apps.get_model("puzzles", "DailyPuzzle")
    for puzzle in Puzzle.objects.only("pk", "position").iterator():
        count = plausible_moves(read_private(puzzle.position))
        Puzzle.objects.filter(pk=puzzle.pk).update(plausible_moves=count)
    PuzzleCard.objects.filter(
        Q(puzzle__source="deal")
        | Q(puzzle__game__isnull=True, puzzle__source="game")
        | ~Q(player_id=F("puzzle__game__owner_id"))
    ).exclude(puzzle__source="self-play").delete()
    DailyPuzzle.objects.filter(date__gte=timezone.now().date()).exclude(
        puzzle__source="self-play"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_puzzles")]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="plausible_moves",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Legal moves leading to different positions (games.puzzles.proof).",
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="puzzle",
            name="source",
            field=models.CharField(
                choices=[("game", "Game"), ("self-play", "Self Play"), ("deal", "Deal")],
                max_length=9,
            ),
        ),
        migrations.RunPython(forward, migrations.RunPython.noop),
    ]
