"""Leaderboards and the daily ranking: ordered querysets with a shared-rank column.

Ties share a rank (standard competition ranking: 1, 2, 2, 4), computed by the
database with `RANK() OVER (...)` so a page and a player's own row agree.
Score is shown in every row but never used to order (take-backs can farm it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import connections
from django.db.models import Case, Count, F, FloatField, OrderBy, Q, QuerySet, When, Window
from django.db.models.functions import Cast, Rank
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import CLASSIC
from games.fairness import counting
from games.fairness.counting import ASSISTED_COUNTED
from games.models import Game, PlayerStats
from games.stats import current_daily_streak

#: Finished games a player needs before the win-rate board lists them.
WIN_RATE_MIN_GAMES = 20


@dataclass(frozen=True)
class Board:
    """One public leaderboard over the PlayerStats rows of a rule, ranked on one `measure`."""

    name: str
    title: Promise | str
    measure: str
    only: Q
    order: tuple[OrderBy, ...]
    #: Finished games a player needs to be listed (None: any number).
    min_games: int | None = None

    @property
    def counts_assisted(self) -> bool:
        """Whether games played with help count on this board (games.fairness.counting)."""
        return self.measure in ASSISTED_COUNTED


def _win_rate_title() -> str:
    return ngettext(
        "Best win rate (at least %(count)d finished game)",
        "Best win rate (at least %(count)d finished games)",
        WIN_RATE_MIN_GAMES,
    ) % {"count": WIN_RATE_MIN_GAMES}


BOARDS: dict[str, Board] = {
    board.name: board
    for board in (
        Board("wins", _("Most wins"), "wins", Q(wins__gt=0), (F("wins").desc(),)),
        Board(
            "win-rate",
            lazy(_win_rate_title, str)(),
            "win_rate",
            Q(games__gte=WIN_RATE_MIN_GAMES),
            (F("win_rate").desc(),),
            WIN_RATE_MIN_GAMES,
        ),
        Board(
            "fastest",
            _("Fastest win (without hints)"),
            "best_time",
            Q(best_time__isnull=False),
            (F("best_time").asc(),),
        ),
        Board(
            "fewest-moves",
            _("Fewest-move win (without hints)"),
            "fewest_moves",
            Q(fewest_moves__isnull=False),
            (F("fewest_moves").asc(),),
        ),
        Board(
            "daily-streak",
            _("Longest daily streak (consecutive UTC days with a daily won without hints)"),
            "daily_streak",
            Q(best_daily_streak__gt=0),
            (F("best_daily_streak").desc(),),
        ),
    )
}


def board_rows(board: Board, rule: str) -> QuerySet[PlayerStats]:
    """The board's rows for a rule, best first, each annotated with its shared `rank`."""
    rows = (
        PlayerStats.objects.filter(rule=rule)
        .filter(counting.on_boards())
        .annotate(win_rate=Cast(F("wins"), FloatField()) / F("games"))
        .filter(board.only)
        .annotate(rank=Window(Rank(), order_by=list(board.order)))
        .select_related("player")
        .only("player__username", *BOARD_FIELDS)
    )
    return rows.order_by(*board.order, "player__username")


BOARD_FIELDS = (
    "rule",
    "games",
    "wins",
    "best_time",
    "best_time_game",
    "fewest_moves",
    "fewest_moves_game",
    "best_score",
    "daily_streak",
    "best_daily_streak",
    "last_daily_win",
)


def board_entry(row: PlayerStats) -> dict[str, Any]:
    return {
        "rank": row.rank,  # type: ignore[attr-defined]
        "player": row.player.get_username(),
        "games": row.games,
        "wins": row.wins,
        "win_rate": round(row.wins / row.games, 4) if row.games else None,
        "best_time_seconds": (
            round(row.best_time.total_seconds(), 3) if row.best_time is not None else None
        ),
        "best_time_game": row.best_time_game_id,
        "fewest_moves": row.fewest_moves,
        "fewest_moves_game": row.fewest_moves_game_id,
        "best_daily_streak": row.best_daily_streak,
        "current_daily_streak": current_daily_streak(row),
        "best_score": row.best_score,
    }


# ---- the daily ranking ----------------------------------------------------------------------

#: Winners first (a win is the only way to 52 cards), by fewer moves, then less time at the
#: table (games.clock); then unfinished games by more cards on foundations, then fewer moves.
DAILY_ORDER = (
    F("cards_on_foundations").desc(),
    F("move_count").asc(),
    F("win_time").asc(nulls_last=True),
)


def daily_sections(day: date, rule: str = CLASSIC.letter) -> dict[str, int]:
    """How many ranked games each of the day's two rankings under `rule` holds (one query)."""
    counts = Game.objects.filter(counting.in_daily_ranking(), daily_date=day, rule=rule).aggregate(
        without_hints=Count("pk", filter=Q(assisted=False)),
        with_hints=Count("pk", filter=Q(assisted=True)),
    )
    return {key: int(value) for key, value in counts.items()}


def daily_rows(day: date, *, assisted: bool = False, rule: str = CLASSIC.letter) -> QuerySet[Game]:
    """The ranked games of a day's daily under `rule`, best first, with their shared `rank`.

    Assisted games (hints) form their own ranking, selected by `assisted`.
    """
    win_time = Case(When(status=Game.Status.WON, then=F("time_played")))
    return (
        Game.objects.filter(
            counting.in_daily_ranking(), daily_date=day, rule=rule, assisted=assisted
        )
        .annotate(win_time=win_time)
        .annotate(rank=Window(Rank(), order_by=list(DAILY_ORDER)))
        .select_related("owner")
        .defer("state")
        .order_by(*DAILY_ORDER, "id")
    )


def own_row[T: (Game, PlayerStats)](
    rows: QuerySet[T], user: User | AnonymousUser, *, field: str
) -> T | None:
    """The signed-in user's row with its rank over all rows, wherever it falls.

    Filtering the ranked queryset would rank the user's rows alone, so the rank is read
    from the whole ranked query wrapped as a subquery.
    """
    if not user.is_authenticated:
        return None
    row = rows.filter(**{field: user.pk}).first()
    if row is None:
        return None
    # `rank` is the boards' Window annotation, which the plugin cannot see through QuerySet[T].
    params: tuple[Any, ...]
    sql, params = rows.values("pk", "rank").query.sql_with_params()  # type: ignore[misc]
    with connections[rows.db].cursor() as cursor:  # where the rows came from (ops/replica.py)
        cursor.execute(
            f"SELECT ranked.rank FROM ({sql}) AS ranked WHERE ranked.pk = %s", [*params, row.pk]
        )
        row.rank = cursor.fetchone()[0]  # type: ignore[attr-defined]
    return row


def daily_entry(game: Game) -> dict[str, Any]:
    return {
        "rank": game.rank,  # type: ignore[attr-defined]
        "player": game.owner.get_username(),
        "game": game.pk,
        "status": game.status,
        "won": game.status == Game.Status.WON,
        "moves": game.move_count,
        "elapsed_seconds": round(game.elapsed().total_seconds(), 3),
        "cards_on_foundations": game.cards_on_foundations,
        "score": game.score,
        "assisted": game.assisted,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
