"""Existing data under the fair-competition rules.

- `Race.rated` says whether a race was rated: true where any racer's rating changed.
- Race games are marked `raced`; their results leave the ordinary statistics (a race
  result is the racer's place, not a lost solitaire game), whose rows are folded again.
"""

from django.db import migrations


def forward(apps, schema_editor):
    Race = apps.get_model("races", "Race")
    Racer = apps.get_model("races", "Racer")
    Game = apps.get_model("games", "Game")
    Result = apps.get_model("games", "Result")
    rated = Racer.objects.filter(rating_after__isnull=False).values("race_id")
    Race.objects.exclude(pk__in=rated).update(rated=False)
    raced = Racer.objects.filter(game__isnull=False).values("game_id")
    Game.objects.filter(pk__in=raced).update(raced=True)
    results = Result.objects.filter(game_id__in=raced)
    affected = set(results.values_list("player_id", "rule"))
    results.delete()
    if affected:
        # The current fold (no historical model has it); it only runs on databases that
        # already hold race results, which have every column it reads.
        from games import stats

        for player_id, rule in affected:
            stats.rebuild(player_id, rule)


class Migration(migrations.Migration):
    dependencies = [
        ("races", "0003_race_rated"),
        ("games", "0007_game_raced"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
