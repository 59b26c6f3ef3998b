"""Races: a room of 2 to 8 players racing one deal, its racers, the quick match queue, ratings.

Every timer of a race is a stored server timestamp (`starts_at`, `ends_at`, each racer's
`seen_at`), so whichever process reads or writes the race next can settle it
(`games.races.lifecycle.settle`); nothing waits in memory.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game


class Race(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        COUNTDOWN = "countdown"
        RUNNING = "running"
        FINISHED = "finished"

    room = models.CharField(max_length=8, unique=True, help_text="The short code players type.")
    rule = models.CharField(max_length=1, choices=Game.Rule.choices, default=Game.Rule.CLASSIC)
    code = models.CharField(
        max_length=16, help_text="The deal every racer gets; secret until the race ends."
    )
    private = models.BooleanField(
        default=False, help_text="Not listed in the lobby (joined by link or room code)."
    )
    quick = models.BooleanField(default=False, help_text="Made by the quick match queue.")
    rated = models.BooleanField(
        default=True,
        db_default=True,
        help_text="The server chose the deal, so the race may be rated; a chosen code never is "
        "(anyone could have solved it first).",
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_races"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0, help_text="The race feed's version.")
    max_players = models.PositiveSmallIntegerField(default=8)
    time_limit = models.DurationField(default=timedelta(minutes=15))
    grace = models.DurationField(
        default=timedelta(seconds=60), help_text="How long a racer may be away before forfeiting."
    )
    created_at = models.DateTimeField(default=timezone.now)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="The countdown's end.")
    ends_at = models.DateTimeField(null=True, blank=True, help_text="starts_at + time_limit.")
    finished_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=12, blank=True)
    finishes = models.PositiveSmallIntegerField(
        default=0, help_text="Racers who won so far (the next winner's place, by commit order)."
    )
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    waiting_for = models.JSONField(
        default=list,
        blank=True,
        help_text="An open rematch: the previous racers (usernames) it last said it waits for.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "private", "-created_at"], name="race_open")]

    def __str__(self) -> str:
        return f"race {self.room} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED


class Racer(models.Model):
    class State(models.TextChoices):
        WAITING = "waiting"
        PLAYING = "playing"
        WON = "won"
        RESIGNED = "resigned"
        FORFEITED = "forfeited"
        FINISHED = "finished"

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="racers")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="racers"
    )
    seat = models.PositiveSmallIntegerField(help_text="Join order, 1, 2, ...")
    guest = models.BooleanField(default=False, help_text="A guest when joining: never rated.")
    ready = models.BooleanField(default=False)
    active = models.BooleanField(
        default=True, help_text="In a race not over yet: a player is active in one race at most."
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="racer"
    )
    cards_on_foundations = models.PositiveSmallIntegerField(default=0)
    face_down = models.PositiveSmallIntegerField(default=21)
    moves = models.PositiveIntegerField(default=0)
    reached_at = models.DateTimeField(
        null=True, blank=True, help_text="When the current foundation count was reached."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Final rank.")
    connected = models.BooleanField(default=False)
    seen_at = models.DateTimeField(default=timezone.now, help_text="Last sign of life.")
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(
        null=True, blank=True, help_text="The rating's uncertainty (openskill sigma) after it."
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["race", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="racer_once_per_race"),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(active=True), name="racer_one_active_race"
            ),
        ]
        indexes = [models.Index(fields=["player", "-joined_at"], name="racer_history")]

    def __str__(self) -> str:
        return f"racer {self.player_id} in race {self.race_id} ({self.state})"


class QueueEntry(models.Model):
    """A player waiting in the quick match queue for a rule."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_queue_entry"
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)
    joined_at = models.DateTimeField(default=timezone.now)
    race = models.ForeignKey(
        Race,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The race the queue matched this player into.",
    )

    class Meta:
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"queue entry of {self.player_id} ({self.rule})"


class RaceRating(models.Model):
    """A registered player's race rating under one rule (openskill Plackett-Luce mu/sigma)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_ratings"
    )
    rule = models.CharField(max_length=1, choices=Game.Rule.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(
        help_text="The shown, ranked figure: mu - 3 sigma (openskill's ordinal)."
    )
    races = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    podiums = models.PositiveIntegerField(default=0, help_text="Races ended in the top three.")
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "rule"], name="race_rating_per_rule"),
        ]
        indexes = [models.Index(fields=["rule", "-rating"], name="race_rating_board")]

    def __str__(self) -> str:
        return f"race rating of {self.player_id} ({self.rule})"
