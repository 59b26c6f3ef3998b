"""Every game records how it came to be (`Game.origin`), backfilled from the fields that
told it until now.

The old rows say it only in part: a race game is `raced`; a daily attempt has its
`daily_date`, the ranked one `ranked`. A retry was an assisted game started after its
player's finished game of the same deal, which is what the backfill looks for; a retry
from version 0 of a daily attempt reads the same as a practice game (which counts for
nothing either), so it is called practice.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

ORIGINS = [
    ("fresh", "a new deal (random, of a difficulty, or typed from its code)"),
    ("daily-ranked", "the player's ranked attempt at a day's daily deal"),
    ("daily-practice", "a later attempt at a day's daily deal"),
    ("retry", "a retry from a position of the player's own finished game"),
    ("race", "a racer's game in a race"),
    ("puzzle", "a puzzle's position checked as a game"),
]


def backfill(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    game = apps.get_model("games", "Game")
    table = schema_editor.quote_name(game._meta.db_table)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} g SET origin = 'retry' WHERE g.assisted AND NOT g.raced"
            " AND NOT g.ranked AND EXISTS (SELECT 1 FROM "
            f"{table} earlier WHERE earlier.owner_id = g.owner_id AND earlier.code = g.code"
            " AND earlier.id <> g.id AND earlier.finished_at <= g.created_at)"
            " AND (g.daily_date IS NULL OR g.version > 0)"
        )
        cursor.execute(f"UPDATE {table} SET origin = 'race' WHERE raced OR race_hidden")
        cursor.execute(
            f"UPDATE {table} SET origin = 'daily-ranked' WHERE ranked AND daily_date IS NOT NULL"
        )
        cursor.execute(
            f"UPDATE {table} SET origin = 'daily-practice' WHERE NOT ranked"
            " AND daily_date IS NOT NULL AND origin = 'fresh'"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_data_exports"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="origin",
            field=models.CharField(
                choices=ORIGINS,
                db_default="fresh",
                default="fresh",
                help_text="How the game came to be (games.fairness decides what that allows).",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="retried_from",
            field=models.ForeignKey(
                blank=True,
                help_text="A retry's game: the finished game whose position it started from.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="games.game",
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=~models.Q(status="active", cards_on_foundations=52),
                name="game_active_has_cards_to_move",
            ),
        ),
    ]
