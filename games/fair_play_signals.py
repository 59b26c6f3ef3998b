"""The fair-play list: what staff should look at, over the last `FAIR_PLAY_DAYS`.

Signals are hints for a person to judge, never a verdict:

- accounts sharing a browser or an address network (accounts.play_sources) that played the
  same daily deal, or sat in the same race;
- one player playing one deal `MANY_PLAYS` times or more: retries (`POST /games/<id>/retry`
  starts a game with the code and rule of the one it retries), daily practice, or the same
  code typed again; each is a rehearsal of that deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Count, F, Max
from django.utils import timezone

from accounts.models import PlaySource
from games.models import Game
from games.races.models import Racer

#: Games of one deal by one player that make a signal.
MANY_PLAYS = 5
#: How two accounts can share where they play from: the `PlaySource` field.
SOURCES = {"browser": "one browser", "address": "one address network"}


class Account(NamedTuple):
    """An account a signal names (its id, for the admin's links)."""

    pk: int
    name: str


@dataclass(frozen=True)
class SharedPlay:
    """Accounts from one browser or address on one daily deal or in one race."""

    via: str
    players: tuple[Account, ...]
    what: str
    on: date


@dataclass(frozen=True)
class RepeatedDeal:
    """One player's many games of one deal."""

    player: Account
    rule: str
    code: str
    games: int
    last: datetime


def since() -> datetime:
    return timezone.now() - timedelta(days=settings.FAIR_PLAY_DAYS)


def sharing(field: str, start: datetime) -> list[frozenset[int]]:
    """The sets of two or more accounts seen with one value of `field` since `start`."""
    groups = (
        PlaySource.objects.filter(seen_at__gte=start)
        .exclude(**{field: ""})
        .values(field)
        .annotate(users=ArrayAgg("user_id", distinct=True), count=Count("user_id", distinct=True))
        .filter(count__gte=2)
    )
    return list({frozenset(group["users"]) for group in groups})


def shared_play() -> list[SharedPlay]:
    """Every daily deal and race two or more accounts of one shared source took part in,
    newest first."""
    start = since()
    found = {
        signal
        for field, via in SOURCES.items()
        for users in sharing(field, start)
        for signal in _together(users, via, start)
    }
    return sorted(found, key=lambda signal: (signal.on, signal.what, signal.via), reverse=True)


def _together(users: frozenset[int], via: str, start: datetime) -> Iterator[SharedPlay]:
    names = dict(User.objects.filter(pk__in=users).values_list("pk", "username"))

    def accounts(ids: list[int]) -> tuple[Account, ...]:
        return tuple(sorted((Account(pk, names[pk]) for pk in ids), key=lambda a: a.name))

    dailies = (
        Game.objects.filter(owner__in=users, daily_date__gte=start.date())
        .values("rule", day=F("daily_date"))
        .annotate(owners=ArrayAgg("owner_id", distinct=True), count=Count("owner", distinct=True))
        .filter(count__gte=2)
    )
    for daily in dailies:
        yield SharedPlay(
            via,
            accounts(daily["owners"]),
            f"the {Game.Rule(daily['rule']).label} daily of {daily['day']}",
            daily["day"],
        )
    races = (
        Racer.objects.filter(player__in=users, race__created_at__gte=start)
        .values("race__room", "race__created_at")
        .annotate(
            players=ArrayAgg("player_id", distinct=True), count=Count("player", distinct=True)
        )
        .filter(count__gte=2)
    )
    for race in races:
        yield SharedPlay(
            via,
            accounts(race["players"]),
            f"race {race['race__room']}",
            race["race__created_at"].date(),
        )


def repeated_deals() -> list[RepeatedDeal]:
    """Players who played one deal (code and rule) `MANY_PLAYS` times or more, most first."""
    rows = (
        Game.objects.filter(created_at__gte=since())
        .values("owner_id", "owner__username", "rule", "code")
        .annotate(games=Count("pk"), last=Max("created_at"))
        .filter(games__gte=MANY_PLAYS)
        .order_by("-games", "-last")
    )
    return [
        RepeatedDeal(
            Account(row["owner_id"], row["owner__username"]),
            row["rule"],
            row["code"],
            row["games"],
            row["last"],
        )
        for row in rows
    ]
