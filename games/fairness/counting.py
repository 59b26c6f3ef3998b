"""Does this result count for boards, streaks, records, ratings? One answer per game, from how
it came to be (`Game.origin`), for the statistics, every board, the daily ranking and the
profile alike (docs/fair-play.md, "Counters").

- A retry replays a position its player has seen end; a daily practice game replays a deal
  its player has played that day: their results are kept in the player's history but count
  for nothing (else 25 retries of a win's last move make 26 wins).
- A race game's result is its racer's place and race rating (games.races), never the
  ordinary statistics.
- An arena game's result is its seat's points (games.arenas), never the ordinary
  statistics either (it is `raced` as a race game is: no `Result` row).
- Help (`Game.assisted`): the game counts for games, wins, win rate and streaks
  (`ASSISTED_COUNTED`) but sets no record (`ASSISTED_EXCLUDED`), and a daily's assisted
  games are ranked apart.
- Guests are never on a board (their statistics are kept, for their own pages).
"""

from __future__ import annotations

from django.db.models import Q

from accounts import moderation
from games.models import Game

#: The origins whose results count in the statistics and on the boards.
COUNTED_ORIGINS = frozenset({Game.Origin.FRESH, Game.Origin.DAILY_RANKED})

#: The one rule for assisted games (a hint or a winnability check was asked: `Game.assisted`),
#: which every board, daily ranking and profile follows and the API tells clients: they are
#: finished games and wins like any other (so they count for wins, win rate and streaks)...
ASSISTED_COUNTED = ("games", "wins", "win_rate", "streaks")
#: ...but set no record (help makes records cheap), and a daily's assisted games are ranked
#: apart from the others.
ASSISTED_EXCLUDED = ("best_time", "fewest_moves", "daily_streak")


def counts(game: Game) -> bool:
    """Whether the game's result counts for games, wins, win rate and streaks."""
    return game.origin in COUNTED_ORIGINS


def counted(game_field: str = "") -> Q:
    """`counts` as a filter, for queries over games (`game_field`: the path to the game)."""
    return Q(**{f"{game_field}origin__in": COUNTED_ORIGINS})


def sets_records(game: Game) -> bool:
    """Whether a win of the game may set a record (best time, fewest moves): counted, unaided."""
    return counts(game) and not game.assisted


def extends_daily_streak(game: Game) -> bool:
    """Whether a win of the game extends its player's daily streak: a ranked daily, unaided."""
    return sets_records(game) and game.origin == Game.Origin.DAILY_RANKED


def in_daily_ranking() -> Q:
    """The games a day's ranking holds: each player's ranked attempt (`ranked`, set with the
    origin `daily-ranked`; the ranking's partial index is on it), a marked account's left out."""
    return Q(ranked=True) & _not_marked("owner")


def on_boards(player_field: str = "player") -> Q:
    """The rows (statistics, race ratings) the public boards hold: not a guest's, nor a marked
    account's."""
    return ~Q(**{f"{player_field}__player_settings__is_guest": True}) & _not_marked(player_field)


def _not_marked(player_field: str) -> Q:
    """Not a marked account's (accounts.moderation): unmarking restores every row."""
    return ~Q(**{f"{player_field}__in": moderation.marked_players()})
