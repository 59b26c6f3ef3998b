"""Personal tokens get scopes; the ones made before keep everything they could do."""

from django.db import migrations, models

# Before scopes a token could do all an API token can (never token management), which is
# exactly these five. Frozen here: later scopes are not granted to old tokens silently.
SCOPES_BEFORE = "game:read game:play race:play account:read account:write"


def grant_what_they_had(apps, schema_editor):
    apps.get_model("accounts", "ApiToken").objects.update(scopes=SCOPES_BEFORE)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_guest")]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="scopes",
            field=models.CharField(
                default="",
                help_text="Space-separated scope names (accounts.scopes).",
                max_length=200,
            ),
        ),
        migrations.RunPython(grant_what_they_had, migrations.RunPython.noop),
    ]
