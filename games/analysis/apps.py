from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """Solver work on the task workers: kept hint lines, post-game analysis, daily solutions."""

    name = "games.analysis"
    label = "analysis"
