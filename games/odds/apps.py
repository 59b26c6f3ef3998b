from django.apps import AppConfig


class OddsConfig(AppConfig):
    """The odds of Yukon: the solver's results on a sample of deals, the published win rate
    of each rule, and the difficulty grades drawn from them."""

    name = "games.odds"
    label = "odds"
