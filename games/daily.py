"""The daily shared deal: one Classic deal per UTC day, the same for everybody.

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
from django.utils import timezone

from games import deals
from games.engine import CLASSIC, DEAL_COUNT, GameCode
from games.engine.solver import solve
from games.errors import ServiceError
from games.models import DailyDeal, Game

#: Bump only with a migration plan: it changes every future day's deal.
CANDIDATE_FORMAT = "yukon-daily-v1:{day}:candidate-{n}"
#: Candidates tried before giving up (each is proven winnable ~80% of the time: never reached).
MAX_CANDIDATES = 64
#: Solver positions allowed per candidate (about a second or two each).
DEFAULT_NODE_BUDGET = 100_000

#: A winnability check: a deal code to the verdict it earned and the nodes it cost.
type Proof = tuple[str, int]
type WinnabilityCheck = Callable[[GameCode], Proof]


class DailyClosed(ServiceError):
    """A ranked daily game is frozen once its day closes, so the day's ranking is final."""

    code = "daily-closed"
    status = 409


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


def candidate_number(day: date, n: int, key: bytes | None = None) -> int:
    """The n-th candidate deal number of `day`, keyed so it cannot be guessed in advance."""
    message = CANDIDATE_FORMAT.format(day=day.isoformat(), n=n).encode()
    digest = hmac.new(key or deals.deal_key(), message, hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % DEAL_COUNT


def solver_check(code: GameCode) -> Proof:
    """The solver's verdict within the node budget."""
    budget = int(getattr(settings, "DAILY_SOLVER_NODES", DEFAULT_NODE_BUDGET))
    result = solve(deals.new_game(code), node_budget=budget)
    return result.verdict, result.nodes


@dataclass(frozen=True)
class Choice:
    number: int
    candidate: int
    verdict: str
    nodes: int


def choose(day: date, check: WinnabilityCheck = solver_check) -> Choice:
    """The first candidate proven winnable: a daily deal is never an unproven one."""
    spent = 0
    for n in range(MAX_CANDIDATES):
        number = candidate_number(day, n)
        verdict, nodes = check(GameCode(CLASSIC, number))
        spent += nodes
        if verdict == "winnable":
            return Choice(number, n, verdict, spent)
    raise RuntimeError(f"no daily deal for {day} proven winnable in {MAX_CANDIDATES} candidates")


def deal_for(day: date, check: WinnabilityCheck = solver_check) -> DailyDeal:
    """The stored deal of `day`, choosing it first if nobody has (one chooser at a time)."""
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is not None:
        return deal
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x59554B, day.toordinal()])
        deal = DailyDeal.objects.filter(date=day).first()
        if deal is None:
            choice = choose(day, check)
            deal = DailyDeal.objects.create(
                date=day,
                number=choice.number,
                candidate=choice.candidate,
                verdict=choice.verdict,
                solver_nodes=choice.nodes,
            )
    return deal


def code_of(deal: DailyDeal) -> GameCode:
    return GameCode(CLASSIC, deal.number)


def revealed_code(deal: DailyDeal) -> str | None:
    """The deal's code once its day has closed; None while it runs."""
    return None if is_open(deal.date) else str(code_of(deal))


def attempts(player: User, day: date) -> list[Game]:
    """The player's games on `day`'s deal, oldest first (the first is the ranked one)."""
    return list(
        Game.objects.filter(owner=player, daily_date=day)
        .defer("state")
        .order_by("created_at", "id")
    )


def ensure_playable(game: Game) -> None:
    """Refuse a move in a ranked daily game whose day has closed."""
    if game.ranked and game.daily_date is not None and not is_open(game.daily_date):
        raise DailyClosed(
            f"The daily deal of {game.daily_date} has closed; its ranked games are final."
        )
