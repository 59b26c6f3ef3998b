from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    """Puzzles: positions with one winning move, the daily puzzle, personal decks, ratings."""

    name = "games.puzzles"
    label = "puzzles"
