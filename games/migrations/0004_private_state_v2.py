"""Rewrite stored snapshots from private format v1 (undo records as objects) to v2 (arrays).

Pure data: v2 keeps every field and writes each undo record as
[move, from, cards, turned] (docs/notation.md). Games already in v2 are left alone.
"""

from django.db import migrations

V1, V2 = "yukon-private-v1", "yukon-private-v2"


def undo_record(record: dict) -> list:
    return [record["move"], record["from"], record["cards"], int(bool(record["turned_up"]))]


def to_v2(apps, schema_editor) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(state__format=V1).iterator(chunk_size=500):
        game.state = {
            **game.state,
            "format": V2,
            "undo": [undo_record(record) for record in game.state["undo"]],
        }
        game.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_daily_verdict_help")]

    operations = [migrations.RunPython(to_v2, migrations.RunPython.noop)]
