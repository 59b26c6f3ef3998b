from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games, their move logs and results; the rules live in games.engine."""

    name = "games"

    def ready(self) -> None:
        # The services' events go to the one module that knows their effects (games.events).
        from django.conf import settings

        from games import effects, events
        from games.engine.solver import set_table_memory

        events.deliver_to(effects.apply)
        # The engine imports nothing from Django: the solver's memory bound arrives as a number.
        set_table_memory(settings.SOLVER_TABLE_MB)
