"""Puzzles and what players did with them: the daily puzzle, personal decks, attempts, ratings.

A puzzle's position is stored in the engine's private form (face-down cards included, no
deal code), and is served only in its public form (`games.puzzles.public`). Every row a
task writes is keyed (a position once, a day once, a player's card once), so a mining task
that runs twice adds nothing.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game


class Puzzle(models.Model):
    """A position where exactly one move (or a short forced sequence) keeps the win."""

    class Source(models.TextChoices):
        # A finished game's turning point, or its way to win from there: its game's analysis
        # tells the answer, so it is its owner's alone (games.fairness.visibility.puzzle_visible).
        GAME = "game"
        # A deal of the server's own self-play (dealt under a key no game code reaches),
        # played along the solver's line: nobody can look it up, so it may be public.
        SELF_PLAY = "self-play"
        # Before self-play: a solver deal from a code anyone could open. Served to nobody.
        DEAL = "deal"

    position = models.JSONField(help_text="The engine's private form (no code, no score).")
    position_key = models.CharField(
        max_length=64, unique=True, help_text="SHA-256 of the cards where they lie: once each."
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)
    solution = models.JSONField(help_text="The answer's moves: each the only one keeping the win.")
    legal_moves = models.PositiveSmallIntegerField(help_text="Legal moves in the position.")
    plausible_moves = models.PositiveSmallIntegerField(
        help_text="Legal moves leading to different positions (games.puzzles.proof)."
    )
    face_down = models.PositiveSmallIntegerField(help_text="Face-down cards in the position.")
    refutation_nodes = models.PositiveIntegerField(
        help_text="Solver positions spent proving every other move lost."
    )
    line_after = models.PositiveIntegerField(
        help_text="Moves of the solver's winning line after the answer."
    )
    difficulty = models.PositiveSmallIntegerField(help_text="1 (easy) to 5.")
    source = models.CharField(max_length=9, choices=Source.choices)
    code = models.CharField(max_length=16, help_text="The deal it comes from (never served).")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="puzzles"
    )
    version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game's log version the position starts from."
    )
    line_step = models.PositiveSmallIntegerField(
        default=0,
        help_text="Moves along the analysis's winning line after that version: 0 is a position "
        "of the game itself; more is one its player never reached.",
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="openskill's ordinal (mu - 3 sigma).")
    attempts = models.PositiveIntegerField(default=0, help_text="Rated (first) attempts.")
    solved = models.PositiveIntegerField(default=0, help_text="Rated attempts that solved it.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["rating"], name="puzzle_rating")]

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.rule}, difficulty {self.difficulty})"


class DailyPuzzle(models.Model):
    """The puzzle of one UTC day, the same for everybody (chosen once, on the day's first ask)."""

    date = models.DateField(primary_key=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="days")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"daily puzzle of {self.date}"


class PuzzlePlayer(models.Model):
    """A player's puzzle rating (openskill Plackett-Luce, against the puzzles) and streaks."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="puzzle_stats",
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="openskill's ordinal (mu - 3 sigma): starts at 0.")
    attempts = models.PositiveIntegerField(default=0, help_text="Rated (first) attempts.")
    solved = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text="Rated attempts solved in a row.")
    best_streak = models.PositiveIntegerField(default=0)
    daily_streak = models.PositiveIntegerField(
        default=0, help_text="Days in a row whose daily puzzle was solved, ending last_daily."
    )
    best_daily_streak = models.PositiveIntegerField(default=0)
    last_daily = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"puzzle stats of {self.player_id}"

    def daily_streak_on(self, day: date) -> int:
        """The daily streak as it stands on `day`: broken once a day's puzzle went unsolved
        (the streak counts up to yesterday's puzzle, or today's)."""
        if self.last_daily is None or (day - self.last_daily).days > 1:
            return 0
        return self.daily_streak


class PuzzleCard(models.Model):
    """A puzzle in a player's personal deck, reviewed in Leitner boxes (games.puzzles.deck)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_cards"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="cards")
    own = models.BooleanField(help_text="Mined from the player's own game (a turning point).")
    box = models.PositiveSmallIntegerField(default=1)
    due_at = models.DateTimeField(default=timezone.now)
    reviews = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0, help_text="Reviews answered wrong.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "puzzle"], name="puzzle_card_once"),
        ]
        indexes = [models.Index(fields=["player", "due_at"], name="puzzle_card_due")]

    def __str__(self) -> str:
        return f"card of puzzle {self.puzzle_id} for {self.player_id} (box {self.box})"


class PuzzleAttempt(models.Model):
    """A decided answer to a puzzle: solved, or a wrong move. The first one per player and
    puzzle is the rated one."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="tries")
    moves = models.JSONField(help_text="The moves sent, up to the first wrong one.")
    correct = models.BooleanField()
    rated = models.BooleanField(help_text="The player's first decided attempt at the puzzle.")
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(
        null=True, blank=True, help_text="The rating's uncertainty (openskill sigma) after it."
    )
    daily_date = models.DateField(
        null=True, blank=True, help_text="The puzzle was that day's daily when answered."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "puzzle"],
                condition=models.Q(rated=True),
                name="puzzle_rated_once",
            ),
        ]
        indexes = [models.Index(fields=["player", "-created_at"], name="puzzle_attempt_recent")]

    def __str__(self) -> str:
        return f"attempt at puzzle {self.puzzle_id} by {self.player_id}"
