"""Race ratings per rule with openskill's Plackett-Luce model (a multi-player Bayesian rating).

Who is rated (docs/api.md, "What is rated"), so that no rating can be farmed:

- only races on a deal the server chose (`Race.rated`): a chosen code could be solved first;
- only registered racers who made at least `MIN_RATED_MOVES` moves that stand (not undone):
  an account that resigns at once lends nobody points, and loses none;
- only when two such racers or more took part;
- the same two players rated against each other again within `REPEAT_WINDOW` count less:
  each earlier race of the pair in the window halves the change (`REPEAT_DECAY`).

The shown rating is openskill's ordinal (mu - 3 sigma), which starts at 0 and rises as the
model grows sure a player is strong. Ties (equal places) are rated alike.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations

from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import MoveLogEntry
from games.races.models import Race, Racer, RaceRating

_MODEL = PlackettLuce()

#: Moves that stand at the race's end (undone ones do not) a racer needs to be rated.
MIN_RATED_MOVES = 5
#: How far back an earlier rated race of the same two players counts as a repeat.
REPEAT_WINDOW = timedelta(hours=24)
#: The share of a rating change kept per earlier rated race of the same pairing in the window.
REPEAT_DECAY = 0.5


def _locked_rating(player_id: int, rule: str) -> RaceRating:
    rows = RaceRating.objects.select_for_update()
    rating = rows.filter(player_id=player_id, rule=rule).first()
    if rating is None:
        fresh = _MODEL.rating()
        RaceRating.objects.bulk_create(
            [
                RaceRating(
                    player_id=player_id,
                    rule=rule,
                    mu=fresh.mu,
                    sigma=fresh.sigma,
                    rating=fresh.ordinal(),
                )
            ],
            ignore_conflicts=True,
        )
        rating = rows.get(player_id=player_id, rule=rule)
    return rating


def standing_moves(game_id: int) -> int:
    """Moves of the game that stand: each undo takes back the entry before it."""
    standing: list[str] = []
    for kind in (
        MoveLogEntry.objects.filter(game_id=game_id).order_by("seq").values_list("kind", flat=True)
    ):
        if kind == MoveLogEntry.Kind.UNDO:
            if standing:
                standing.pop()
        else:
            standing.append(kind)
    return sum(kind == MoveLogEntry.Kind.MOVE for kind in standing)


def unrated_reason(race: Race, racers: list[Racer]) -> str | None:
    """Why the race can rate nobody, or None while it may still rate someone: a chosen deal,
    or fewer than two registered racers (counting an open room's free seats)."""
    if not race.rated:
        return "chosen-deal"
    free_seats = race.max_players - len(racers) if race.status == Race.Status.OPEN else 0
    if sum(not racer.guest for racer in racers) + free_seats < 2:
        return "guests"
    return None


def eligible(race: Race, racers: list[Racer]) -> list[Racer]:
    """The racers this race rates (none when fewer than two qualify), in a stable order."""
    if not race.rated:
        return []
    chosen = [
        racer
        for racer in racers
        if not racer.guest
        and racer.place is not None
        and racer.game_id is not None
        and standing_moves(racer.game_id) >= MIN_RATED_MOVES
    ]
    return sorted(chosen, key=lambda racer: racer.pk) if len(chosen) >= 2 else []


def repeats(race: Race, player_ids: list[int], now: datetime) -> dict[int, int]:
    """For each player, the most rated races in the window they shared with one opponent
    of this race (0: no repeat)."""
    earlier = (
        Racer.objects.filter(
            player_id__in=player_ids,
            rating_after__isnull=False,
            race__rule=race.rule,
            race__finished_at__gte=now - REPEAT_WINDOW,
        )
        .exclude(race=race)
        .values_list("race_id", "player_id")
    )
    per_race: dict[int, set[int]] = {}
    for race_id, player_id in earlier:
        per_race.setdefault(race_id, set()).add(player_id)
    shared: Counter[tuple[int, int]] = Counter()
    for players in per_race.values():
        shared.update(combinations(sorted(players), 2))
    return {
        player: max(
            (shared[min(player, other), max(player, other)] for other in player_ids),
            default=0,
        )
        for player in player_ids
    }


def rate(race: Race, racers: list[Racer], now: datetime | None = None) -> None:
    """Fold a finished race's places into its eligible racers' ratings (those racers get
    `rating_before`/`rating_after`; the caller saves them)."""
    rated = eligible(race, racers)
    if not rated:
        return
    moment = now or timezone.now()
    rows = [_locked_rating(racer.player_id, race.rule) for racer in rated]
    teams = [[_MODEL.rating(mu=row.mu, sigma=row.sigma)] for row in rows]
    ranks = [float(racer.place or 0) for racer in rated]
    new = _MODEL.rate(teams, ranks=ranks)
    repeated = repeats(race, [racer.player_id for racer in rated], moment)
    for racer, row, (after,) in zip(rated, rows, new, strict=True):
        weight = REPEAT_DECAY ** repeated[racer.player_id]
        racer.rating_before = row.rating
        row.mu += weight * (after.mu - row.mu)
        row.sigma += weight * (after.sigma - row.sigma)
        row.rating = _MODEL.rating(mu=row.mu, sigma=row.sigma).ordinal()
        row.races += 1
        row.wins += racer.place == 1
        row.podiums += (racer.place or 99) <= 3
        row.updated_at = moment
        row.save()
        racer.rating_after = row.rating
        racer.sigma_after = row.sigma
