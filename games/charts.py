"""A player's progress as chart series (docs/api.md, "Charts"): one query per chart.

What another viewer sees leaves out what is still secret (`games.visibility`): a ranked
daily of a day still open, a game of a race still running. A marked player's profile is
refused before any chart is read (api/views/players.py). Another player's charts are
cached for `CHARTS_CACHE_SECONDS`; your own are read fresh, so the game you just
finished is in them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, TruncWeek
from django.utils.translation import gettext_lazy as _

from accounts.moderation import without_marked
from games.analysis.models import GameAnalysis
from games.days import today
from games.errors import ServiceError
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


def _iso(moment: datetime | date) -> str:
    return moment.isoformat()


def _secret(prefix: str = "") -> Q:
    """Games still secret to everybody but their player: today's dailies, running races."""
    return Q(**{f"{prefix}race_hidden": True}) | Q(**{f"{prefix}daily_date__gte": today()})


def race_rating(player: User, own: bool) -> dict[str, Any]:
    """Each rated race's rating after it, per rule, with openskill's sigma (the band)."""
    rows = (
        Racer.objects.filter(
            player=player, rating_after__isnull=False, race__status=Race.Status.FINISHED
        )
        .order_by("race__finished_at", "race_id")
        .values_list(
            "race__rule",
            "race__finished_at",
            "race__room",
            "place",
            "rating_before",
            "rating_after",
            "sigma_after",
        )
    )
    series: dict[str, list[dict[str, Any]]] = {}
    for rule, at, room, place, before, after, sigma in rows:
        series.setdefault(rule, []).append(
            {
                "at": _iso(at),
                "race": room,
                "place": place,
                "rating": after,
                "change": after - before if before is not None else None,
                "sigma": sigma,
            }
        )
    return {"series": series}


def puzzle_rating(player: User, own: bool) -> dict[str, Any]:
    """Each rated puzzle answer's rating after it, with sigma; another viewer does not see
    answers to today's daily puzzle."""
    rows = PuzzleAttempt.objects.filter(player=player, rated=True, rating_after__isnull=False)
    if not own:
        rows = rows.exclude(daily_date__gte=today())
    return {
        "points": [
            {
                "at": _iso(at),
                "puzzle": puzzle,
                "solved": correct,
                "rating": after,
                "change": after - before if before is not None else None,
                "sigma": sigma,
            }
            for at, puzzle, correct, before, after, sigma in rows.order_by(
                "created_at", "id"
            ).values_list(
                "created_at", "puzzle_id", "correct", "rating_before", "rating_after", "sigma_after"
            )
        ]
    }


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
    better = without_marked(
        Game.objects.filter(
            before,
            daily_date=OuterRef("daily_date"),
            rule=OuterRef("rule"),
            assisted=OuterRef("assisted"),
            ranked=True,
        ),
        "owner",
    )
    counted = better.order_by().values("daily_date").annotate(n=Count("pk")).values("n")
    return Subquery(counted, output_field=IntegerField())


def _daily_state(status: str, assisted: bool) -> str:
    if status != Game.Status.WON:
        return "played"
    return "won" if assisted else "won-without-help"


def dailies(player: User, own: bool) -> dict[str, Any]:
    """A year of ranked dailies, a cell per day and rule played (a day not in the list was
    not played), with the rank in that day's ranking (with or without help)."""
    first = today() - timedelta(days=CALENDAR_DAYS - 1)
    rows = Game.objects.filter(owner=player, ranked=True, daily_date__gte=first)
    if not own:
        rows = rows.exclude(_secret())
    rows = rows.annotate(rank=Coalesce(_daily_rank(), Value(0)) + 1)
    return {
        "from": _iso(first),
        "to": _iso(today()),
        "cells": [
            {
                "date": _iso(day),
                "rule": rule,
                "state": _daily_state(status, assisted),
                "rank": rank,
                "game": game,
            }
            for day, rule, status, assisted, rank, game in rows.order_by(
                "daily_date", "rule"
            ).values_list("daily_date", "rule", "status", "assisted", "rank", "pk")
        ],
    }


def _results(player: User, own: bool) -> QuerySet[Result]:
    rows = Result.objects.filter(player=player)
    return rows if own else rows.exclude(_secret("game__"))


def win_rate(player: User, own: bool) -> dict[str, Any]:
    """Finished games and wins per UTC week (weeks start on Monday), per rule."""
    rows = (
        _results(player, own)
        .annotate(week=TruncWeek("finished_at"))
        .values("rule", "week")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True)))
        .order_by("rule", "week")
        .values_list("rule", "week", "games", "wins")
    )
    series: dict[str, list[dict[str, Any]]] = {}
    for rule, week, games, wins in rows:
        series.setdefault(rule, []).append(
            {"week": _iso(week.date()), "games": games, "wins": wins, "win_rate": wins / games}
        )
    return {"series": series}


def wins(player: User, own: bool) -> dict[str, Any]:
    """Time and moves of the newest `WINS_SHOWN` wins without help, oldest first."""
    rows = (
        _results(player, own)
        .filter(won=True, assisted=False)
        .order_by("-finished_at", "-id")
        .values_list("finished_at", "rule", "game_id", "duration", "moves")[:WINS_SHOWN]
    )
    return {
        "points": [
            {
                "at": _iso(at),
                "rule": rule,
                "game": game,
                "seconds": round(duration.total_seconds(), 3),
                "moves": moves,
            }
            for at, rule, game, duration, moves in reversed(rows)
        ]
    }


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
    series: dict[str, list[dict[str, Any]]] = {}
    for rule, move, games in counts:
        series.setdefault(rule, []).append({"move": move, "games": games})
    return {"series": series}


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
