"""Race ratings per rule with openskill's Plackett-Luce model (a multi-player Bayesian rating).

Only registered players are rated, and only when a finished race ranks at least two
of them; guests race unrated. The shown rating is openskill's ordinal (mu - 3 sigma),
which starts at 0 and rises as the model grows sure a player is strong.
"""

from __future__ import annotations

from django.utils import timezone
from openskill.models import PlackettLuce

from games.races.models import Race, Racer, RaceRating

_MODEL = PlackettLuce()


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


def rate(race: Race, racers: list[Racer]) -> None:
    """Fold a finished race's places into its registered racers' ratings (racers get
    `rating_before`/`rating_after`; the caller saves them)."""
    rated = sorted((r for r in racers if not r.guest and r.place is not None), key=lambda r: r.pk)
    if len(rated) < 2:
        return
    rows = [_locked_rating(racer.player_id, race.rule) for racer in rated]
    teams = [[_MODEL.rating(mu=row.mu, sigma=row.sigma)] for row in rows]
    places = [racer.place for racer in rated]
    new = _MODEL.rate(teams, ranks=[float(place) for place in places if place is not None])
    now = timezone.now()
    for racer, row, (after,) in zip(rated, rows, new, strict=True):
        racer.rating_before = round(row.rating, 2)
        row.mu, row.sigma, row.rating = after.mu, after.sigma, after.ordinal()
        row.races += 1
        row.wins += racer.state == Racer.State.WON
        row.podiums += (racer.place or 99) <= 3
        row.updated_at = now
        row.save()
        racer.rating_after = round(row.rating, 2)
