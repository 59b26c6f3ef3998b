from django.apps import AppConfig


class RacesConfig(AppConfig):
    """Live races: rooms, the quick match queue, racers' progress and race ratings."""

    name = "games.races"
    label = "races"
