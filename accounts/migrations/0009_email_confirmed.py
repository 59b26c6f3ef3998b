from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0008_two_factor_and_sessions")]

    operations = [
        migrations.AddField(
            model_name="playersettings",
            name="email_confirmed",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "The e-mail address was confirmed by a link sent to it (accounts.addresses)."
                ),
            ),
        ),
    ]
