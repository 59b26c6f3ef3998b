from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games, their move logs and results; the rules live in games.engine."""

    name = "games"
