"""The daily shared deal: one Classic deal per UTC day, the same for everybody.

Beside it, each other rule (Relaxed, Russian, Alaska) has an optional daily of its own,
chosen and proven the same way from candidates keyed with its letter.

The deal number is a keyed function of the date (HMAC-SHA256 with the deployment's
deal key), so nobody can compute tomorrow's deal. Candidates are tried in order
until one is proven winnable by the solver within a fixed node budget (a node
budget, not a time budget, so every server picks the same candidate); the choice
is stored in `DailyDeal` and computed once per day. While the day runs the code
is hidden everywhere and a daily game is visible to its owner only; once the day
closes the code is revealed and every game of that day can be replayed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games import deals
from games.engine import CLASSIC, DEAL_COUNT, GameCode, Rule
from games.engine.solver import solve
from games.errors import GameNotFound, ServiceError
from games.models import DailyDeal, Game, VariantDailyDeal

#: Bump only with a migration plan: it changes every future day's deal.
CANDIDATE_FORMAT = "yukon-daily-v1:{day}:candidate-{n}"
#: Another rule's candidates name its letter, so its daily never deals the Classic day's cards.
VARIANT_CANDIDATE_FORMAT = "yukon-daily-v1:{day}:{rule}:candidate-{n}"
#: Candidates tried before giving up (each is proven winnable ~80% of the time: never reached).
MAX_CANDIDATES = 64
#: A variant's daily tries far more candidates: few Russian deals are proven winnable (about
#: 1 in 20 at the test budget; most of the rest are proven unwinnable, quickly)...
VARIANT_MAX_CANDIDATES = 1024
#: ...within this many candidates' node budgets in all, so a day of `unknown`s stays bounded
#: (nodes, not seconds: every server stops at the same candidate).
VARIANT_BUDGET_CANDIDATES = 48

#: A day's stored deal, the Classic one or a variant's.
type DayDeal = DailyDeal | VariantDailyDeal
#: Solver positions allowed per candidate (about a second or two each).
DEFAULT_NODE_BUDGET = 100_000

#: A winnability check: a deal code to the verdict it earned and the nodes it cost.
type Proof = tuple[str, int]
type WinnabilityCheck = Callable[[GameCode], Proof]


class NoDailyDeal(ServiceError):
    """No candidate of the day was proven winnable within the budget: no unproven daily is dealt."""

    code = "no-daily-deal"
    status = 503


class DailyClosed(ServiceError):
    """A ranked daily game is frozen once its day closes, so the day's ranking is final.

    It carries the game, so a client still showing it live gets its frozen state back.
    """

    code = "daily-closed"
    status = 409

    def __init__(self, message: str, game: Game) -> None:
        super().__init__(message)
        self.game = game


class InvalidDay(ServiceError):
    """A day in a request that is no calendar date (not YYYY-MM-DD, or like 2026-02-30)."""

    code = "invalid-date"
    status = 400


class DayNotCome(ServiceError):
    """A day still to come: its deal is chosen when it starts, so there is nothing to show."""

    code = "day-not-come"
    status = 404


class RaceInProgress(ServiceError):
    """Another racer's game cannot be watched while its race runs (the racers share a deal)."""

    code = "race-in-progress"
    status = 403


class DailyInProgress(ServiceError):
    """Someone else's daily game cannot be watched while its day runs (it shows the deal)."""

    code = "daily-in-progress"
    status = 403


def today() -> date:
    """The current UTC day."""
    return timezone.now().astimezone(UTC).date()


def is_open(day: date | None) -> bool:
    """Whether a daily game of `day` is still secret (its day has not closed yet)."""
    return day is not None and day >= today()


def parse_day(text: str) -> date:
    """A UTC day from its ISO form ("2026-12-01"); anything else is `InvalidDay`."""
    try:
        if len(text) == len("2026-12-01"):  # fromisoformat also takes "20261201"
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise InvalidDay(f"{text!r} is not a date: days are written like 2026-12-01.")


def ensure_come(day: date) -> None:
    """Refuse a day after today: its deal does not exist yet."""
    if day > today():
        raise DayNotCome(f"The daily deal of {day} is chosen when that day starts.")


def is_closed(game: Game) -> bool:
    """Whether `game` is a ranked daily game whose day has closed: frozen, its ranking final."""
    return game.ranked and game.daily_date is not None and not is_open(game.daily_date)


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
    solver's verdicts on the deal the others still race)."""
    if game.race_hidden:
        raise RaceInProgress(
            f"Game {game.pk} races others on a shared deal: its log and analysis open when "
            "the race ends."
        )
    ensure_watchable(game, user)


def candidate_number(day: date, n: int, key: bytes | None = None, rule: Rule = CLASSIC) -> int:
    """The n-th candidate deal number of `day` under `rule`, keyed so nobody can guess it."""
    if rule == CLASSIC:
        text = CANDIDATE_FORMAT.format(day=day.isoformat(), n=n)
    else:
        text = VARIANT_CANDIDATE_FORMAT.format(day=day.isoformat(), rule=rule.letter, n=n)
    digest = hmac.new(key or deals.deal_key(), text.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % DEAL_COUNT


def node_budget() -> int:
    """Solver positions per candidate (the same on every server)."""
    return int(getattr(settings, "DAILY_SOLVER_NODES", DEFAULT_NODE_BUDGET))


def solver_check(code: GameCode) -> Proof:
    """The solver's verdict within the node budget."""
    result = solve(deals.new_game(code), node_budget=node_budget())
    return result.verdict, result.nodes


@dataclass(frozen=True)
class Choice:
    number: int
    candidate: int
    verdict: str
    nodes: int


def choose(day: date, check: WinnabilityCheck = solver_check, rule: Rule = CLASSIC) -> Choice:
    """The first candidate proven winnable: a daily deal is never an unproven one.

    A variant's search also stops when its nodes in all pass `VARIANT_BUDGET_CANDIDATES`
    candidates' budgets; both bounds count nodes, so the choice is the same everywhere.
    """
    variant = rule != CLASSIC
    limit = VARIANT_MAX_CANDIDATES if variant else MAX_CANDIDATES
    total = VARIANT_BUDGET_CANDIDATES * node_budget() if variant else None
    spent = 0
    for n in range(limit):
        number = candidate_number(day, n, rule=rule)
        verdict, nodes = check(GameCode(rule, number))
        spent += nodes
        if verdict == "winnable":
            return Choice(number, n, verdict, spent)
        if total is not None and spent >= total:
            break
    raise NoDailyDeal(
        f"No {rule.name} deal of {day} was proven winnable within the daily search's budget; "
        "there is no such daily today."
    )


def deal_for(day: date, check: WinnabilityCheck = solver_check, rule: Rule = CLASSIC) -> DayDeal:
    """The stored deal of `day` under `rule`, choosing it first if nobody has (one chooser)."""
    deal = stored_deal(day, rule)
    if deal is not None:
        return deal
    with transaction.atomic():
        with connection.cursor() as cursor:
            # One lock per (day, rule); Classic keeps the key it always had.
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [0x59554B, day.toordinal()]
                if rule == CLASSIC
                else [0x595556, day.toordinal() * 128 + ord(rule.letter)],
            )
        deal = stored_deal(day, rule)
        if deal is None:
            choice = choose(day, check, rule)
            fields = dict(
                date=day,
                number=choice.number,
                candidate=choice.candidate,
                verdict=choice.verdict,
                solver_nodes=choice.nodes,
            )
            if rule == CLASSIC:
                deal = DailyDeal.objects.create(**fields)
            else:
                deal = VariantDailyDeal.objects.create(**fields, rule=rule.letter)
    return deal


def stored_deal(day: date, rule: Rule = CLASSIC) -> DayDeal | None:
    """The deal already chosen for `day` under `rule`, if any."""
    if rule == CLASSIC:
        return DailyDeal.objects.filter(date=day).first()
    return VariantDailyDeal.objects.filter(date=day, rule=rule.letter).first()


def code_of(deal: DayDeal) -> GameCode:
    return GameCode(Rule.from_letter(deal.rule), deal.number)


def revealed_code(deal: DayDeal) -> str | None:
    """The deal's code once its day has closed; None while it runs."""
    return None if is_open(deal.date) else str(code_of(deal))


def attempts(player: User, day: date, rule: Rule = CLASSIC) -> list[Game]:
    """The player's games on `day`'s deal under `rule`, oldest first (the first is ranked)."""
    return list(
        Game.objects.filter(owner=player, daily_date=day, rule=rule.letter)
        .defer("state")
        .order_by("created_at", "id")
    )


def ensure_playable(game: Game) -> None:
    """Refuse a move (or an assist) in a ranked daily game whose day has closed."""
    if is_closed(game):
        raise DailyClosed(
            f"The daily deal of {game.daily_date} has closed; its ranked games are final.", game
        )
