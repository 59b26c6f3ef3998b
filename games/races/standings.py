"""Race ratings on a leaderboard and a player's race statistics and history."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.races.models import Race, Racer, RaceRating

HISTORY_SIZE = 20


def leaderboard(rule: str, limit: int = 50) -> list[dict[str, Any]]:
    """Registered players by race rating under `rule` (guests are never rated)."""
    rows = (
        RaceRating.objects.filter(rule=rule)
        .select_related("player")
        .order_by("-rating", "player__username")[:limit]
    )
    return [
        {
            "rank": rank,
            "player": row.player.get_username(),
            "rating": round(row.rating, 2),
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
            "rating": round(row.rating, 2),
            "mu": round(row.mu, 3),
            "sigma": round(row.sigma, 3),
            "races": row.races,
            "wins": row.wins,
            "podiums": row.podiums,
        }
        for row in RaceRating.objects.filter(player=player)
    }
    entries = (
        Racer.objects.filter(player=player, race__status=Race.Status.FINISHED, place__isnull=False)
        .select_related("race")
        .order_by("-race__finished_at")[:HISTORY_SIZE]
    )
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
    return {"ratings": ratings, "history": history}
