"""What the solver found, stored: a game's kept hint line, its post-game analysis, deal lines.

Every write is keyed (game, version) or (code), so a job that runs twice (a worker killed
mid-job and retried) overwrites the same rows instead of adding new ones.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from games.models import Game


class Verdict(models.TextChoices):
    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


class HintLine(models.Model):
    """The owner's last solver answer for a game: a winning line from `version`, or why not.

    While the player keeps to `moves`, the next hint is the next move of the same line, so a
    player who follows hints wins; any other move or an undo asks the solver again.
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="hint_line"
    )
    version = models.PositiveIntegerField(help_text="The game version the solve started from.")
    followed_to = models.PositiveIntegerField(
        default=0, help_text="The log was checked to keep to the line up to this version."
    )
    pending = models.BooleanField(default=True, help_text="Queued on the task workers.")
    questions = models.JSONField(default=list, help_text="hint / winnability, asked meanwhile.")
    verdict = models.CharField(max_length=12, choices=Verdict.choices, blank=True)
    reason = models.CharField(max_length=16, blank=True, help_text="Which budget ran out.")
    moves = models.JSONField(
        default=list,
        help_text="The winning line from `version`; when unknown, the one move the search "
        "found most promising (not proven).",
    )
    proven = models.BooleanField(
        default=True, help_text="The verdict and its line are proven (false: a best guess)."
    )
    nodes = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"hint line of game {self.game_id} from v{self.version}"


class GameAnalysis(models.Model):
    """One finished game's analysis job and its conclusions (one row per game, ever)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    worker = models.CharField(max_length=64, blank=True, help_text="Who holds the job now.")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0, help_text="Runs started (retries too).")
    node_budget = models.PositiveIntegerField(help_text="Solver positions per position.")
    queued_at = models.DateTimeField(default=timezone.now, help_text="Last put on the queue.")
    losing_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The move after which the game could not be won."
    )
    better_move = models.CharField(max_length=16, blank=True)
    turning = models.CharField(
        max_length=16,
        blank=True,
        help_text="Where the win was lost (games.analysis.turning): lost, never-winnable, "
        "not-lost or unknown; blank until searched.",
    )
    turning_line = models.JSONField(
        default=list, blank=True, help_text="A winning line from the last winnable position."
    )
    shortest_line = models.PositiveIntegerField(
        null=True, blank=True, help_text="Moves of the shortest win the solver found."
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"


class PositionVerdict(models.Model):
    """The verdict on the position after one log entry (version 0: the deal)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="verdicts")
    version = models.PositiveIntegerField()
    verdict = models.CharField(max_length=12, choices=Verdict.choices)
    reason = models.CharField(max_length=16, blank=True, help_text="Which budget ran out.")
    nodes = models.PositiveIntegerField(default=0, help_text="0: decided from a neighbour.")
    move = models.CharField(
        max_length=16, blank=True, help_text="When winnable: the first move of a winning line."
    )
    distance = models.PositiveIntegerField(
        null=True, blank=True, help_text="When winnable: moves to a win along that line."
    )

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="verdict_once_per_version"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} v{self.version}: {self.verdict}"


class DealLine(models.Model):
    """A solver's winning line for a deal code, offered once a daily deal's day has closed."""

    code = models.CharField(max_length=16, primary_key=True)
    verdict = models.CharField(
        max_length=12, choices=Verdict.choices, blank=True, help_text="Blank while queued."
    )
    moves = models.JSONField(default=list)
    nodes = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"line of {self.code} ({self.verdict})"


class BoardPosition(models.Model):
    """A position of the analysis board (games.analysis.board), named by an opaque key.

    The key is a keyed hash of the deal and the cards where they lie, so the same position
    reached twice is one row, and its move verdicts, once judged, serve every later viewer.
    No game is created: a move on the board leads to another row, an undo back to a row.
    """

    class Judging(models.TextChoices):
        NONE = "none", "not asked yet"
        QUEUED = "queued", "queued on the task workers"
        DONE = "done", "every legal move judged"

    key = models.CharField(max_length=24, primary_key=True)
    code = models.CharField(
        max_length=16, blank=True, help_text="The deal's code (blank: a self-play puzzle's)."
    )
    position = models.JSONField(help_text="The engine's private form (face-down cards too).")
    puzzle = models.ForeignKey(
        "puzzles.Puzzle",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="board_positions",
        help_text="Reached only from this puzzle's board: shown to who solved it.",
    )
    judging = models.CharField(max_length=8, choices=Judging.choices, default=Judging.NONE)
    verdicts = models.JSONField(
        default=dict, help_text="Legal move -> keeps-win, loses-win or unknown, as judged."
    )
    line = models.JSONField(default=list, help_text="A winning line from here, once found.")
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last queued, or last verdict written, while judging."
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"board position {self.key} ({self.judging})"
