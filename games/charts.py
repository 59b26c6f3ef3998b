"""A player's progress as chart series (docs/api.md, "Charts"): one query per chart.

What another viewer sees leaves out what is still secret (`games.fairness.visibility`): a ranked
daily of a day still open, a game of a race still running. A marked player's profile is
refused before any chart is read (api/views/players.py). Another player's charts are
cached for `CHARTS_CACHE_SECONDS`; your own are read fresh, so the game you just
finished is in them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, TruncWeek
from django.utils.translation import gettext_lazy as _

from games.analysis.models import GameAnalysis
from games.days import today
from games.errors import ServiceError
from games.fairness import counting
from games.models import Game, Result
from games.puzzles.models import PuzzleAttempt
from games.races.models import Race, Racer

#: How many days the dailies calendar covers, today included.
CALENDAR_DAYS = 365
#: The newest unassisted wins the wins chart holds (older ones are left out).
WINS_SHOWN = 500


class UnknownChart(ServiceError):
    code = "unknown-chart"
    status = 404
    message = _("There is no such chart.")


def _columns(names: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> dict[str, list[Any]]:
    """Rows as parallel lists, one per name (the form uPlot draws; small in JSON)."""
    columns = list(zip(*rows, strict=True)) or [()] * len(names)
    return {name: list(column) for name, column in zip(names, columns, strict=True)}


def _unix(moments: list[datetime]) -> list[int]:
    return [int(moment.timestamp()) for moment in moments]


def _per_rule(names: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> dict[str, Any]:
    """Rows whose first value is the rule, as columns per rule."""
    grouped: dict[str, list[tuple[Any, ...]]] = {}
    for rule, *rest in rows:
        grouped.setdefault(rule, []).append(tuple(rest))
    return {rule: _columns(names, found) for rule, found in grouped.items()}


def _secret(prefix: str = "") -> Q:
    """Games still secret to everybody but their player: today's dailies, running races."""
    return Q(**{f"{prefix}race_hidden": True}) | Q(**{f"{prefix}daily_date__gte": today()})


RATING_COLUMNS = ("at", "rating", "change", "sigma")


def race_rating(player: User, own: bool) -> dict[str, Any]:
    """Each rated race's rating after it, per rule, with openskill's sigma (the band)."""
    rows = (
        Racer.objects.filter(
            player=player, rating_after__isnull=False, race__status=Race.Status.FINISHED
        )
        .annotate(change=F("rating_after") - F("rating_before"))
        .order_by("race__finished_at", "race_id")
        .values_list(
            "race__rule",
            "race__finished_at",
            "rating_after",
            "change",
            "sigma_after",
            "race__room",
            "place",
        )
    )
    series = _per_rule((*RATING_COLUMNS, "race", "place"), rows)
    for columns in series.values():
        columns["at"] = _unix(columns["at"])
    return {"series": series}


def puzzle_rating(player: User, own: bool) -> dict[str, Any]:
    """Each rated puzzle answer's rating after it, with sigma; another viewer does not see
    answers to today's daily puzzle."""
    rows = PuzzleAttempt.objects.filter(player=player, rated=True, rating_after__isnull=False)
    if not own:
        rows = rows.exclude(daily_date__gte=today())
    points = _columns(
        (*RATING_COLUMNS, "puzzle", "solved"),
        rows.annotate(change=F("rating_after") - F("rating_before"))
        .order_by("created_at", "id")
        .values_list("created_at", "rating_after", "change", "sigma_after", "puzzle_id", "correct"),
    )
    points["at"] = _unix(points["at"])
    return {"points": points}


def _daily_rank() -> Subquery:
    """How many ranked games of the same day's ranking (same rule, same assisted) stand
    before this one in `games.leaderboards.DAILY_ORDER`; marked players count for none."""
    before = (
        Q(cards_on_foundations__gt=OuterRef("cards_on_foundations"))
        | Q(
            cards_on_foundations=OuterRef("cards_on_foundations"),
            move_count__lt=OuterRef("move_count"),
        )
        | Q(
            cards_on_foundations=OuterRef("cards_on_foundations"),
            move_count=OuterRef("move_count"),
            status=Game.Status.WON,
            time_played__lt=OuterRef("time_played"),
        )
    )
    better = Game.objects.filter(
        before,
        counting.in_daily_ranking(),
        daily_date=OuterRef("daily_date"),
        rule=OuterRef("rule"),
        assisted=OuterRef("assisted"),
    )
    counted = better.order_by().values("daily_date").annotate(n=Count("pk")).values("n")
    return Subquery(counted, output_field=IntegerField())


def dailies(player: User, own: bool) -> dict[str, Any]:
    """A year of ranked dailies, a cell per day and rule played (a day not in the list was
    not played): `played`, `won` (with help) or `won-without-help`, with the rank in that
    day's ranking (with or without help)."""
    first = today() - timedelta(days=CALENDAR_DAYS - 1)
    rows = Game.objects.filter(owner=player, ranked=True, daily_date__gte=first)
    if not own:
        rows = rows.exclude(_secret())
    cell = Case(
        When(status=Game.Status.WON, assisted=False, then=Value("won-without-help")),
        When(status=Game.Status.WON, then=Value("won")),
        default=Value("played"),
    )
    cells = _columns(
        ("date", "rule", "state", "rank", "game"),
        rows.annotate(cell=cell, rank=Coalesce(_daily_rank(), Value(0)) + 1)
        .order_by("daily_date", "rule")
        .values_list("daily_date", "rule", "cell", "rank", "pk"),
    )
    cells["date"] = [day.isoformat() for day in cells["date"]]
    return {"from": first.isoformat(), "to": today().isoformat(), "cells": cells}


def _results(player: User, own: bool) -> QuerySet[Result]:
    """The results the statistics count (games.fairness.counting: no retry, no practice)."""
    rows = Result.objects.filter(counting.counted("game__"), player=player)
    return rows if own else rows.exclude(_secret("game__"))


def win_rate(player: User, own: bool) -> dict[str, Any]:
    """Finished games and wins per UTC week (`at`: its Monday), per rule."""
    rows = (
        _results(player, own)
        .annotate(week=TruncWeek("finished_at"))
        .values("rule", "week")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True)))
        .order_by("rule", "week")
        .values_list("rule", "week", "games", "wins")
    )
    series = _per_rule(("at", "games", "wins"), rows)
    for columns in series.values():
        columns["at"] = _unix(columns["at"])
    return {"series": series}


def wins(player: User, own: bool) -> dict[str, Any]:
    """Time and moves of the newest `WINS_SHOWN` wins without help, per rule, oldest first."""
    rows = (
        _results(player, own)
        .filter(won=True, assisted=False)
        .order_by("-finished_at", "-id")
        .values_list("rule", "finished_at", "duration", "moves", "game_id")[:WINS_SHOWN]
    )
    series = _per_rule(("at", "seconds", "moves", "game"), reversed(rows))
    for columns in series.values():
        columns["at"] = _unix(columns["at"])
        columns["seconds"] = [round(spent.total_seconds(), 3) for spent in columns["seconds"]]
    return {"series": series}


def turning_points(player: User, own: bool) -> dict[str, Any]:
    """How many lost games were lost at each move (the analyses' turning point), per rule."""
    rows = GameAnalysis.objects.filter(
        game__owner=player, turning="lost", losing_version__isnull=False
    )
    if not own:
        rows = rows.exclude(_secret("game__"))
    counts = (
        rows.values("game__rule", "losing_version")
        .annotate(games=Count("pk"))
        .order_by("game__rule", "losing_version")
        .values_list("game__rule", "losing_version", "games")
    )
    return {"series": _per_rule(("move", "games"), counts)}


CHARTS: dict[str, Callable[[User, bool], dict[str, Any]]] = {
    "race-rating": race_rating,
    "puzzle-rating": puzzle_rating,
    "dailies": dailies,
    "win-rate": win_rate,
    "wins": wins,
    "turning-points": turning_points,
}


def chart(name: str, player: User, viewer: User | AnonymousUser) -> dict[str, Any]:
    """Chart `name` of `player` as `viewer` may see it: fresh for the player, cached for
    everybody else."""
    build = CHARTS.get(name)
    if build is None:
        raise UnknownChart(f"There is no chart {name!r}; the charts are {', '.join(CHARTS)}.")
    if viewer.pk == player.pk:
        return {"chart": name, **build(player, True)}
    key = f"charts:{player.pk}:{name}"
    answer: dict[str, Any] | None = cache.get(key)
    if answer is None:
        answer = {"chart": name, **build(player, False)}
        cache.set(key, answer, settings.CHARTS_CACHE_SECONDS)
    return answer
