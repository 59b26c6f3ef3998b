"""Persistent games: the game row (with a state snapshot), its append-only log, and results.

A game is fully determined by its deal code and its move log; `state` is a
snapshot of the engine's private form kept for speed, and `verify_games`
proves it equals a replay of the log.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games import clock
from games.engine import CLASSIC, RULES


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        WON = "won"
        ABANDONED = "abandoned"

    class Origin(models.TextChoices):
        """How the game came to be: what it may show and whether its result counts are
        decided from this (games.fairness), never from a guess over the other fields."""

        FRESH = "fresh", "a new deal (random, of a difficulty, or typed from its code)"
        DAILY_RANKED = "daily-ranked", "the player's ranked attempt at a day's daily deal"
        DAILY_PRACTICE = "daily-practice", "a later attempt at a day's daily deal"
        RETRY = "retry", "a retry from a position of the player's own finished game"
        RACE = "race", "a racer's game in a race"
        PUZZLE = "puzzle", "a puzzle's position checked as a game"
        ARENA = "arena", "a deal of an arena's sequence, played on a player's seat"

    #: The engine's rules, by letter (CLASSIC = "C", "Classic"; ...): one list for both.
    # The stubs know only the one-string form of the functional API, not (name, value) pairs.
    Rule = models.TextChoices(  # type: ignore[call-overload]
        "Rule", [(rule.name.upper(), (rule.letter, rule.name)) for rule in RULES.values()]
    )

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    code = models.CharField(max_length=16)
    rule = models.CharField(max_length=1, choices=Rule.choices, default=Rule.CLASSIC)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    score = models.PositiveIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    cards_on_foundations = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    assisted = models.BooleanField(
        default=False, help_text="An assist that reveals hidden information (a hint) was used."
    )
    state = models.JSONField(help_text="The engine's private form: equals a replay of the log.")
    created_at = models.DateTimeField(default=timezone.now)
    first_move_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    time_played = models.DurationField(
        default=timedelta(0),
        db_default=timedelta(0),
        help_text="Time at the table counted up to `clock_at` (games.clock); final once over.",
    )
    clock_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While the clock runs: its last sign of life (a move, a resume). Null while "
        "it stands: before the first move, parked, or over.",
    )
    daily_date = models.DateField(
        null=True, blank=True, help_text="The UTC day whose daily deal this game plays, if any."
    )
    ranked = models.BooleanField(
        default=False, help_text="The player's first attempt at that daily deal (the ranked one)."
    )
    origin = models.CharField(
        max_length=16,
        choices=Origin.choices,
        default=Origin.FRESH,
        db_default=Origin.FRESH,
        help_text="How the game came to be (games.fairness decides what that allows).",
    )
    retried_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="A retry's game: the finished game whose position it started from.",
    )
    race_hidden = models.BooleanField(
        default=False,
        db_default=False,
        help_text="The game races others on one deal: its code and board stay its player's "
        "until the race ends (games.races).",
    )
    raced = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Played in a race: its result is the race's (games.races), never counted in "
        "the ordinary statistics.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="game_owner_recent"),
            models.Index(fields=["status", "-last_move_at"], name="game_status_recent"),
            models.Index(
                fields=["daily_date", "rule", "assisted", "-cards_on_foundations", "move_count"],
                condition=models.Q(ranked=True),
                name="game_daily_rule_ranking",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(cards_on_foundations__lte=52), name="game_cards_at_most_52"
            ),
            # A game with every card home is over: no active game sits with nothing to move.
            models.CheckConstraint(
                condition=~models.Q(status="active", cards_on_foundations=52),
                name="game_active_has_cards_to_move",
            ),
            models.UniqueConstraint(
                fields=["owner", "daily_date", "rule"],
                condition=models.Q(ranked=True),
                name="game_one_ranked_daily_attempt_per_rule",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} {self.code} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.ACTIVE

    @property
    def day_closes_at(self) -> datetime | None:
        """When a ranked daily game freezes: the UTC midnight that ends its day (else None)."""
        if not self.ranked or self.daily_date is None:
            return None
        return datetime.combine(self.daily_date + timedelta(days=1), time(0), tzinfo=UTC)

    def elapsed(self, now: datetime | None = None) -> timedelta:
        """Time at the table (games.clock): what was counted, plus the running stretch since
        the clock's last sign of life (at most `clock.IDLE_CAP`).

        A ranked daily game's clock stops when its day closes: it can take no move after that.
        """
        if self.clock_at is None:
            return self.time_played
        end = now or timezone.now()
        closes_at = self.day_closes_at
        if closes_at is not None:
            end = min(end, closes_at)
        return self.time_played + clock.counted(self.clock_at, end)

    def clock_running(self, now: datetime | None = None) -> bool:
        """Whether the clock counts right now (a sign of life within the idle cap, day open)."""
        if self.clock_at is None or self.is_finished:
            return False
        end = now or timezone.now()
        closes_at = self.day_closes_at
        return end - self.clock_at < clock.IDLE_CAP and (closes_at is None or end < closes_at)

    def count_time(self, now: datetime, *, running: bool) -> None:
        """Count the time since the last sign of life, then run on from `now` or stand still."""
        self.time_played = self.elapsed(now)
        self.clock_at = now if running else None


class MoveLogEntry(models.Model):
    """One accepted write in a game's life; never updated or deleted (undo is an entry too)."""

    class Kind(models.TextChoices):
        MOVE = "move"
        TAKE_BACK = "take-back"
        UNDO = "undo"

    class Intent(models.TextChoices):
        MOVE = "move"
        TAP = "tap"
        DOUBLE_CLICK = "double-click"
        UNDO = "undo"
        FINISH = "finish"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField(help_text="1, 2, 3, ... within the game, without gaps.")
    version = models.PositiveIntegerField(help_text="The game version this entry produced.")
    text = models.CharField(max_length=16, help_text="Move notation, or 'undo'.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    intent = models.CharField(max_length=12, choices=Intent.choices, default=Intent.MOVE)
    score_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="log_seq_unique_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.text}"


class Result(models.Model):
    """A finished game's outcome, written once when the game is won or abandoned."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results"
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)
    won = models.BooleanField()
    moves = models.PositiveIntegerField()
    duration = models.DurationField()
    score = models.PositiveIntegerField()
    cards_on_foundations = models.PositiveSmallIntegerField()
    assisted = models.BooleanField(default=False)
    finished_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["player", "rule", "-finished_at"], name="result_player_recent"),
            models.Index(fields=["rule", "won", "moves"], name="result_rule_moves"),
            models.Index(fields=["rule", "won", "duration"], name="result_rule_duration"),
        ]

    def __str__(self) -> str:
        return f"result of game {self.game_id}: {'won' if self.won else 'not won'}"


class ChosenDeal(models.Model):
    """A day's deal as the daily chooser found it: the number, which candidate, its proof."""

    number = models.BigIntegerField(help_text="The deal number (0 .. 26**7 - 1).")
    candidate = models.PositiveSmallIntegerField(help_text="Which keyed candidate was taken.")
    verdict = models.CharField(
        max_length=12, help_text="The solver's verdict: always winnable (only proven deals)."
    )
    solver_nodes = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True


class DailyDeal(ChosenDeal):
    """The Classic deal chosen for one UTC day, computed once (the proof can take seconds)."""

    date = models.DateField(primary_key=True)

    #: The main daily is always Classic (variant dailies are `VariantDailyDeal`s).
    rule = CLASSIC.letter

    def __str__(self) -> str:
        return f"daily deal of {self.date}"


class VariantDailyDeal(ChosenDeal):
    """The optional daily deal of one UTC day under another rule (Relaxed, Russian, Alaska)."""

    date = models.DateField()
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "rule"], name="variant_daily_one_per_rule"),
        ]

    def __str__(self) -> str:
        return f"{self.rule} daily deal of {self.date}"


class PlayerStats(models.Model):
    """Incremental per-(player, rule) aggregates, updated in the transaction that records a result.

    Leaderboards and profiles read these rows instead of scanning results. Records (best
    time, fewest moves) and the daily streak come from unassisted games only.
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats"
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0, help_text="Won games in a row.")
    best_streak = models.PositiveIntegerField(default=0)
    best_time = models.DurationField(null=True, blank=True)
    best_time_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    fewest_moves = models.PositiveIntegerField(null=True, blank=True)
    fewest_moves_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    best_score = models.PositiveIntegerField(default=0, help_text="Shown, never a ranking key.")
    daily_streak = models.PositiveIntegerField(
        default=0, help_text="Consecutive UTC days with a won ranked daily, ending last_daily_win."
    )
    best_daily_streak = models.PositiveIntegerField(default=0)
    last_daily_win = models.DateField(null=True, blank=True)
    last_finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "rule"], name="stats_one_row_per_rule"),
        ]
        indexes = [
            models.Index(fields=["rule", "-wins"], name="stats_rule_wins"),
            models.Index(
                fields=["rule", "best_time"],
                condition=models.Q(best_time__isnull=False),
                name="stats_rule_best_time",
            ),
            models.Index(
                fields=["rule", "fewest_moves"],
                condition=models.Q(fewest_moves__isnull=False),
                name="stats_rule_fewest_moves",
            ),
            models.Index(
                fields=["rule", "-best_daily_streak"],
                condition=models.Q(best_daily_streak__gt=0),
                name="stats_rule_daily_streak",
            ),
        ]

    def __str__(self) -> str:
        return f"stats of player {self.player_id} ({self.rule})"


class DataExport(models.Model):
    """A player's "Download my data" archive (games.exports), built by a task.

    One at a time per player: the partial unique constraint makes two asks at once one export.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        READY = "ready"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    games_total = models.PositiveIntegerField(default=0)
    archive = models.BinaryField(null=True, blank=True, help_text="The zip file, once ready.")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner"],
                condition=models.Q(status__in=["queued", "running"]),
                name="data_export_one_at_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"export {self.pk} of {self.owner_id} ({self.status})"
