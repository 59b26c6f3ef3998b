"""The daily shared deal: one Classic deal per UTC day, the same for everybody.

Beside it, each other rule (Relaxed, Russian, Alaska) has an optional daily of its own,
chosen and proven the same way from candidates keyed with its letter.

The deal number is a keyed function of the date (HMAC-SHA256 with the deployment's
deal key), so nobody can compute tomorrow's deal. Candidates are tried in order
until one is proven winnable by the solver within a fixed node budget (a node
budget, not a time budget, so every server picks the same candidate); the choice
is stored in `DailyDeal` and computed once per day. While the day runs the code
is hidden everywhere and a daily game is visible to its owner only; once the day
closes the code is revealed and every game of that day can be replayed
(games.fairness.visibility decides it; games.days tells the days).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from games import deals
from games.days import is_closed, today
from games.engine import CLASSIC, DEAL_COUNT, GameCode, Rule
from games.engine.solver import solve
from games.errors import ServiceError
from games.models import DailyDeal, Game, VariantDailyDeal
from games.public import GameState, game_state

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


class DailyClosed(ServiceError):
    """A ranked daily game is frozen once its day closes, so the day's ranking is final.

    It carries the game's frozen state, so a client still showing it live gets it back.
    """

    code = "daily-closed"
    status = 409
    message = _("This daily deal is closed: its ranking is final.")

    def __init__(self, message: str, state: GameState) -> None:
        super().__init__(message)
        self.state = state

    def details(self) -> dict[str, object]:
        return {"state": self.state}


class NoDailyDeal(ServiceError):
    """No candidate of the day was proven winnable within the budget: no unproven daily is dealt."""

    code = "no-daily-deal"
    status = 503
    message = _("There is no daily deal for this rule today: none was proven winnable in time.")


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


#: How far back a day nobody played still gets its deal: chosen on the first ask, exactly as it
#: would have been that day (the same keyed candidates, the same node budget). Older days
#: nobody played have none: each choice costs a solver search, a variant's up to a minute.
DAYS_DEALT_AFTERWARDS = 366


def past_deal(day: date, rule: Rule = CLASSIC) -> DayDeal | None:
    """A closed day's deal: the stored one, or for a day of the last year that nobody played,
    the one its day would have dealt (chosen now); None for an older day nobody played, or a
    variant day whose candidates were none proven winnable."""
    deal = stored_deal(day, rule)
    if deal is not None or (today() - day).days > DAYS_DEALT_AFTERWARDS:
        return deal
    try:
        return deal_for(day, rule=rule)
    except NoDailyDeal:
        return None


def stored_deal(day: date, rule: Rule = CLASSIC) -> DayDeal | None:
    """The deal already chosen for `day` under `rule`, if any."""
    if rule == CLASSIC:
        return DailyDeal.objects.filter(date=day).first()
    return VariantDailyDeal.objects.filter(date=day, rule=rule.letter).first()


def code_of(deal: DayDeal) -> GameCode:
    return GameCode(Rule.from_letter(deal.rule), deal.number)


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
            f"The daily deal of {game.daily_date} has closed; its ranked games are final.",
            game_state(game),
        )
