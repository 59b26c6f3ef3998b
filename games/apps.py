from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games, their move logs and results; the rules live in games.engine."""

    name = "games"

    def ready(self) -> None:
        # The services' events go to the one module that knows their effects (games.events).
        from games import effects, events

        events.deliver_to(effects.apply)
