from django.apps import AppConfig


class ArenasConfig(AppConfig):
    """Arenas: scheduled and player-made tournaments where everyone plays the same deals."""

    name = "games.arenas"
    label = "arenas"

    def ready(self) -> None:
        """A schedule setting that cannot be read stops start-up, naming the setting."""
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured, ValidationError

        from games.arenas import schedule

        try:
            schedule.parse(settings.ARENA_SCHEDULE)
        except ValidationError as error:
            raise ImproperlyConfigured(f"ARENA_SCHEDULE: {error.messages[0]}") from error
