"""Player statistics: incremental aggregates per (player, rule), folded in as results land.

`record` runs inside the transaction that writes the result (the game row is
already locked), so the aggregates never disagree with the results. Definitions:

- streak: won games in a row under the rule, in finishing order (an abandoned game ends it);
- daily streak: consecutive UTC days with a won, unassisted, ranked daily game of the rule
  (the Classic daily for Classic, a variant's own daily for it);
- best time and fewest moves: over unassisted wins only (hints would make records cheap);
- score: the best score is shown, never used to rank (take-backs can farm it).

Which results count at all, and what an assisted game counts for, is games.fairness.counting's
answer: retries and daily practice games are folded into nothing.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from games.days import today
from games.fairness import counting
from games.fairness.counting import ASSISTED_COUNTED, ASSISTED_EXCLUDED
from games.fairness.visibility import hides_code
from games.models import Game, PlayerStats, Result


def _locked_row(player_id: int, rule: str) -> PlayerStats:
    """The player's row for the rule, locked; created on the first result."""
    rows = PlayerStats.objects.select_for_update()
    stats = rows.filter(player_id=player_id, rule=rule).first()
    if stats is None:
        PlayerStats.objects.bulk_create(
            [PlayerStats(player_id=player_id, rule=rule)], ignore_conflicts=True
        )
        stats = rows.get(player_id=player_id, rule=rule)
    return stats


def fold(stats: PlayerStats, game: Game, result: Result) -> None:
    """Apply one result to a stats row in memory (shared by `record` and the demo seeder); a
    result that counts for nothing (games.fairness.counting) leaves the row as it was."""
    if not counting.counts(game):
        return
    stats.games += 1
    stats.best_score = max(stats.best_score, result.score)
    stats.last_finished_at = result.finished_at
    if not result.won:
        stats.current_streak = 0
        return
    stats.wins += 1
    stats.current_streak += 1
    stats.best_streak = max(stats.best_streak, stats.current_streak)
    if not counting.sets_records(game):
        return  # ASSISTED_EXCLUDED: no record from a game played with help
    if stats.best_time is None or result.duration < stats.best_time:
        stats.best_time, stats.best_time_game_id = result.duration, game.pk
    if stats.fewest_moves is None or result.moves < stats.fewest_moves:
        stats.fewest_moves, stats.fewest_moves_game_id = result.moves, game.pk
    if counting.extends_daily_streak(game) and game.daily_date is not None:
        _extend_daily_streak(stats, game.daily_date)


def _extend_daily_streak(stats: PlayerStats, day: date) -> None:
    if stats.last_daily_win == day - timedelta(days=1):
        stats.daily_streak += 1
    elif stats.last_daily_win != day:
        stats.daily_streak = 1
    stats.last_daily_win = day
    stats.best_daily_streak = max(stats.best_daily_streak, stats.daily_streak)


def record(game: Game, result: Result) -> None:
    """Fold a just-written result into the player's aggregates (two queries: lock, update);
    one that counts for nothing touches no row."""
    if not counting.counts(game):
        return
    stats = _locked_row(game.owner_id, game.rule)
    fold(stats, game, result)
    stats.save()


def rebuild(player_id: int, rule: str) -> None:
    """Fold the player's results under `rule` again from nothing (after results were removed)."""
    stats = _locked_row(player_id, rule)
    fresh = PlayerStats(pk=stats.pk, player_id=player_id, rule=rule)
    results = Result.objects.filter(player_id=player_id, rule=rule).select_related("game")
    for result in results.order_by("finished_at", "id"):
        fold(fresh, result.game, result)
    fresh.save()


def current_daily_streak(stats: PlayerStats, on: date | None = None) -> int:
    """The daily streak still alive on `on` (today): its last win was today or yesterday."""
    day = on or today()
    if stats.last_daily_win is None or stats.last_daily_win < day - timedelta(days=1):
        return 0
    return stats.daily_streak


def _seconds(value: timedelta | None) -> float | None:
    return None if value is None else round(value.total_seconds(), 3)


def stats_dict(stats: PlayerStats) -> dict[str, Any]:
    """The public form of one (player, rule) row."""
    return {
        "rule": stats.rule,
        "games": stats.games,
        "wins": stats.wins,
        "win_rate": round(stats.wins / stats.games, 4) if stats.games else None,
        "current_streak": stats.current_streak,
        "best_streak": stats.best_streak,
        "best_time_seconds": _seconds(stats.best_time),
        "best_time_game": stats.best_time_game_id,
        "fewest_moves": stats.fewest_moves,
        "fewest_moves_game": stats.fewest_moves_game_id,
        "best_score": stats.best_score,
        "current_daily_streak": current_daily_streak(stats),
        "best_daily_streak": stats.best_daily_streak,
        "last_daily_win": stats.last_daily_win.isoformat() if stats.last_daily_win else None,
    }


def empty_stats(player: User, rule: str) -> PlayerStats:
    return PlayerStats(player_id=player.pk, rule=rule)


def profile(player: User) -> dict[str, Any]:
    """A public profile: per-rule statistics (zeros for a rule never played)."""
    rows = {row.rule: row for row in PlayerStats.objects.filter(player=player)}
    return {
        "username": player.get_username(),
        "joined": player.date_joined.isoformat(),
        "assisted_games": {"counted": list(ASSISTED_COUNTED), "excluded": list(ASSISTED_EXCLUDED)},
        "stats": {
            rule: stats_dict(rows.get(rule) or empty_stats(player, rule))
            for rule in Game.Rule.values
        },
    }


def history(player: User, rule: str) -> QuerySet[Result]:
    """The player's results under a rule, newest first (the result_player_recent index).

    Per rule, like the statistics: an all-rules order would sort every result of a busy
    player on each page.
    """
    results = Result.objects.filter(player=player, rule=rule)
    return (
        results.select_related("game")
        .only(
            *(
                f"game__{name}"
                for name in (
                    "code",
                    "daily_date",
                    "ranked",
                    "origin",
                    "assisted",
                    "status",
                    "owner_id",
                    "created_at",
                )
            ),
            *(
                "game_id",
                "rule",
                "won",
                "moves",
                "duration",
                "score",
                "cards_on_foundations",
                "assisted",
                "finished_at",
            ),
        )
        .order_by("-finished_at", "-id")
    )


def history_entry(result: Result) -> dict[str, Any]:
    """One history line; a daily game's code stays hidden while its day runs."""
    game = result.game
    return {
        "game": result.game_id,
        "code": None if hides_code(game) else game.code,
        "rule": result.rule,
        "daily": game.daily_date.isoformat() if game.daily_date else None,
        "ranked": game.ranked,
        "origin": game.origin,
        "counted": counting.counts(game),
        "won": result.won,
        "moves": result.moves,
        "seconds": _seconds(result.duration),
        "score": result.score,
        "cards_on_foundations": result.cards_on_foundations,
        "assisted": result.assisted,
        "finished_at": result.finished_at.isoformat(),
    }
