"""May this viewer see this? One module every door asks (REST views, websocket feeds,
pushes, the lobby, replays, analyses, a day's ranking and line, puzzles).

Face-down cards are never shown anywhere (the engine's public form has none). Beyond
them, a deal some players still play is secret to everybody else: today's daily deal
(until its UTC day closes), a running race's deal (until the race ends) and a running
arena's deals (until the arena ends: its games are `race_hidden` too). Their codes are
hidden, and their games are watched by their players only; a race game's log and
analysis stay closed to its own racer too, while the others race on (an arena game's
too). A puzzle mined from a game is its owner's alone, and waits as its game's analysis
does (`puzzle_visible`).
"""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.arenas.errors import ArenaInProgress
from games.arenas.models import Arena
from games.days import is_open, today
from games.engine import GameCode, Rule
from games.errors import GameNotFound, ServiceError
from games.models import DailyDeal, Game, VariantDailyDeal
from games.puzzles.models import Puzzle
from games.races.models import Race, Racer


class RaceInProgress(ServiceError):
    """Another racer's game cannot be watched while its race runs (the racers share a deal)."""

    code = "race-in-progress"
    status = 403
    message = _("Other racers' games can be watched once the race is over.")


class DailyInProgress(ServiceError):
    """Someone else's daily game cannot be watched while its day runs (it shows the deal)."""

    code = "daily-in-progress"
    status = 403
    message = _("Other players' daily games can be watched once the day is over.")


def hides_code(game: Game) -> bool:
    """A running daily deal's code, and a running race's (its racers share the deal), are secret."""
    return game.race_hidden or is_open(game.daily_date)


def is_private_to_owner(game: Game, user: User | AnonymousUser) -> bool:
    """True when `user` may not watch `game`: someone else's daily game while its day runs,
    or someone else's race game while the race runs.

    Watching the board or the log would show the deal's cards to players who have not
    played it yet; realtime consumers use this same test before joining a game group.
    """
    return hides_code(game) and game.owner_id != getattr(user, "pk", None)


def open_to_anyone(game: Game) -> bool:
    """Whether every viewer may watch `game`: the lobby lists only such games."""
    return not hides_code(game)


def open_to_anyone_filter() -> Q:
    """`open_to_anyone` as a query filter (no race running on the deal, no open day's daily)."""
    return Q(race_hidden=False) & (Q(daily_date__isnull=True) | Q(daily_date__lt=today()))


def watchable_game(game_id: int, user: User | AnonymousUser) -> Game:
    """The game `user` may watch (its owner loaded); a missing game is `game-not-found`."""
    game = Game.objects.select_related("owner").filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    ensure_watchable(game, user)
    return game


def ensure_watchable(game: Game, user: User | AnonymousUser) -> None:
    if is_private_to_owner(game, user) and game.origin == Game.Origin.ARENA:
        raise ArenaInProgress(
            f"Game {game.pk} plays an arena's shared deals: only its player may watch it "
            "until the arena ends."
        )
    if is_private_to_owner(game, user) and game.race_hidden:
        raise RaceInProgress(
            f"Game {game.pk} races others on a shared deal: only its player may watch it "
            "until the race ends."
        )
    if is_private_to_owner(game, user):
        raise DailyInProgress(
            f"Game {game.pk} plays the daily deal of {game.daily_date}: "
            "only its player may watch it until the day closes."
        )


def ensure_replayable(game: Game, user: User | AnonymousUser) -> None:
    """A game's log and analysis: as watching, but a race game's stay closed to everybody,
    its own racer included, until the race ends (a racer who resigned must not read the
    solver's verdicts on the deal the others still race). An arena game's likewise, until
    the arena ends."""
    if game.race_hidden and game.origin == Game.Origin.ARENA:
        raise ArenaInProgress(
            f"Game {game.pk} plays an arena's shared deals: its log and analysis open when "
            "the arena ends."
        )
    if game.race_hidden:
        raise RaceInProgress(
            f"Game {game.pk} races others on a shared deal: its log and analysis open when "
            "the race ends."
        )
    ensure_watchable(game, user)


def ensure_day_closed(day: date, what: str) -> None:
    """A day's replays and its solver line show the day's deal: they open when the day closes."""
    if is_open(day):
        raise DailyInProgress(
            f"The daily deal of {day} is still running; its {what} open when it closes."
        )


def solver_line_shown(game: Game) -> bool:
    """Whether a game's analysis may show a solver line beyond the game's own moves (it turns
    up cards that were face down): not while the deal is secret (`hides_code`)."""
    return not hides_code(game)


def race_code(race: Race) -> str | None:
    """A race's deal code: shown once the race is over (its racers share the deal)."""
    return race.code if race.is_over else None


def arena_codes(arena: Arena) -> list[str] | None:
    """An arena's deal codes, in order: shown once its end is settled (everyone played them)."""
    return list(arena.deals) if arena.finished_at is not None else None


def racer_game(race: Race, racer: Racer) -> int | None:
    """A racer's game id as the race's public form tells it: once the race is over (while it
    runs, a racer learns their own from `games.races.public.viewer_part`)."""
    return racer.game_id if race.is_over else None


def revealed_code(deal: DailyDeal | VariantDailyDeal) -> str | None:
    """The deal's code once its day has closed; None while it runs."""
    return None if is_open(deal.date) else str(GameCode(Rule.from_letter(deal.rule), deal.number))


def puzzle_visible(puzzle: Puzzle, user: User | AnonymousUser) -> bool:
    """Whether `user` may see (and answer) `puzzle`.

    A self-play puzzle is everybody's: nobody can look its deal up. A puzzle mined from a
    game is its owner's alone (the game's analysis, which others may read, tells its
    answer), and while the game's deal is secret it waits as the analysis does: a running
    race's for its racer too; today's daily's shows its owner only the positions of their
    own game (not those along the analysis's way to win, which would show cards their game
    never turned up). Anything else (a retired solver deal's, a deleted game's) is nobody's."""
    if puzzle.source == Puzzle.Source.SELF_PLAY:
        return True
    game = puzzle.game
    if game is None or game.owner_id != getattr(user, "pk", None) or game.race_hidden:
        return False
    return not is_open(game.daily_date) or puzzle.line_step == 0


def puzzles_open_to_anyone() -> Q:
    """The puzzles every viewer may see (`puzzle_visible` for anyone), as a query filter."""
    return Q(source=Puzzle.Source.SELF_PLAY)
