"""Race ratings on a leaderboard and a player's race statistics and history.

Ratings come from rated races only (games.races.ratings); a player's race statistics count
every race they finished, rated or not, by place: a win is a first place, a podium a place
in the top three. Ratings are given exactly (the pages round them).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet

from games.fairness import counting
from games.races.models import Race, Racer, RaceRating

HISTORY_SIZE = 20


def leaderboard(rule: str, limit: int = 50) -> list[dict[str, Any]]:
    """Registered players by race rating under `rule` (guests are never rated)."""
    rows = (
        RaceRating.objects.filter(counting.on_boards(), rule=rule)
        .select_related("player")
        .order_by("-rating", "player__username")[:limit]
    )
    return [
        {
            "rank": rank,
            "player": row.player.get_username(),
            "rating": row.rating,
            "races": row.races,
            "wins": row.wins,
            "podiums": row.podiums,
        }
        for rank, row in enumerate(rows, start=1)
    ]


def player_races(player: User) -> dict[str, Any]:
    """Ratings and counts per rule, and the latest finished races with the player's place."""
    ratings = {
        row.rule: {
            "rating": row.rating,
            "mu": row.mu,
            "sigma": row.sigma,
            "races": row.races,
            "wins": row.wins,
            "podiums": row.podiums,
        }
        for row in RaceRating.objects.filter(player=player)
    }
    finished = Racer.objects.filter(
        player=player, race__status=Race.Status.FINISHED, place__isnull=False
    )
    entries = finished.select_related("race").order_by("-race__finished_at")[:HISTORY_SIZE]
    history = [
        {
            "room": entry.race.room,
            "rule": entry.race.rule,
            "code": entry.race.code,
            "finished_at": entry.race.finished_at.isoformat() if entry.race.finished_at else None,
            "place": entry.place,
            "racers": entry.race.racers.count(),
            "state": entry.state,
            "cards_on_foundations": entry.cards_on_foundations,
            "moves": entry.moves,
            "game": entry.game_id,
            "rating_before": entry.rating_before,
            "rating_after": entry.rating_after,
        }
        for entry in entries
    ]
    return {"ratings": ratings, "stats": _race_stats(finished), "history": history}


def _race_stats(finished: QuerySet[Racer]) -> dict[str, dict[str, int]]:
    """Races, wins (first places) and podiums (top three) per rule, over every finished race."""
    rows = finished.values("race__rule").annotate(
        races=Count("pk"),
        wins=Count("pk", filter=Q(place=1)),
        podiums=Count("pk", filter=Q(place__lte=3)),
    )
    return {
        row["race__rule"]: {"races": row["races"], "wins": row["wins"], "podiums": row["podiums"]}
        for row in rows
    }
