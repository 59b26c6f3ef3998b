"""Arenas: a time window on the server's clock in which every seated player plays the same
secret sequence of deals, one after another, for points (games.arenas.points).

Every timer is a stored server timestamp (`starts_at`, `ends_at`), so whichever request or
process touches the arena first settles it (`games.arenas.play.settle`); nothing waits in
memory. Final standings are recomputed from the stored games (`games.arenas.standings`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game


class Arena(models.Model):
    class Kind(models.TextChoices):
        SCHEDULED = "scheduled"
        PLAYER = "player"

    class Status(models.TextChoices):
        """Derived from the clock (`Arena.status_at`), never stored."""

        UPCOMING = "upcoming"
        RUNNING = "running"
        FINISHED = "finished"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(
        max_length=60,
        blank=True,
        help_text="A scheduled arena's entry ('hourly': the page names it in the player's "
        "language), or the title its creator gave (may be empty).",
    )
    slot = models.CharField(
        max_length=60,
        unique=True,
        null=True,
        blank=True,
        help_text="A scheduled arena's schedule entry and start: creating it twice is one row.",
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices, default=Game.Rule.CLASSIC)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    private = models.BooleanField(
        default=False, help_text="Reached only by its link token, never listed."
    )
    token = models.CharField(
        max_length=32, unique=True, help_text="The unguessable link of a private arena."
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_arenas",
    )
    deals = models.JSONField(
        help_text="The secret sequence of deal codes every player gets, in order (rising "
        "difficulty); shown once the arena is over."
    )
    finished_at = models.DateTimeField(
        null=True, blank=True, help_text="When the end was settled (final ranks written)."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["starts_at", "id"]
        indexes = [models.Index(fields=["private", "ends_at"], name="arena_listed")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="arena_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"arena {self.pk} {self.name} ({self.rule})"

    @property
    def length(self) -> timedelta:
        return self.ends_at - self.starts_at

    def status_at(self, now: datetime) -> str:
        if self.finished_at is not None or now >= self.ends_at:
            return self.Status.FINISHED
        return self.Status.RUNNING if now >= self.starts_at else self.Status.UPCOMING

    @property
    def public_id(self) -> str:
        """What its links and the API name it by: a public arena's number, a private one's token."""
        return self.token if self.private else str(self.pk)


class Seat(models.Model):
    """A player in an arena: once per arena, in one arena not yet over at a time."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_seats"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    active = models.BooleanField(
        default=True, help_text="In an arena not settled yet: a player holds one such seat."
    )
    # The live score, updated as each game ends (the record is the games: `standings.final`).
    points = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    in_a_row = models.PositiveIntegerField(default=0, help_text="Wins in a row (the flame).")
    games_ended = models.PositiveIntegerField(default=0)
    time = models.DurationField(default=timedelta(0), help_text="Total time of the ended games.")
    rank = models.PositiveIntegerField(
        null=True, blank=True, help_text="The final rank; null for guests and marked accounts."
    )

    class Meta:
        ordering = ["arena", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["arena", "player"], name="seat_once_per_arena"),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(active=True), name="seat_one_open_arena"
            ),
        ]
        indexes = [
            models.Index(fields=["arena", "-points", "-wins", "time"], name="seat_standing"),
            models.Index(fields=["player", "-joined_at"], name="seat_history"),
        ]

    def __str__(self) -> str:
        return f"seat of {self.player_id} in arena {self.arena_id}"


class ArenaGame(models.Model):
    """One game of a seat: the deal at `index` of its arena's sequence."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="games")
    index = models.PositiveSmallIntegerField(help_text="0, 1, 2, ... in the arena's sequence.")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="arena_game")
    without_undo = models.BooleanField(
        default=False, help_text="Chosen before the first move: no undo, +1 on a win."
    )

    class Meta:
        ordering = ["seat", "index"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "index"], name="arena_game_once_per_index"),
        ]

    def __str__(self) -> str:
        return f"arena game {self.index} of seat {self.seat_id}"


class ScheduleOverride(models.Model):
    """The operator's schedule, edited in the admin: when a row exists it replaces the
    `ARENA_SCHEDULE` setting (games.arenas.schedule reads and checks either)."""

    entries = models.JSONField(help_text="The same list as the ARENA_SCHEDULE setting.")
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return "arena schedule"
