"""The schedule: which arenas the server makes by itself, read from the `ARENA_SCHEDULE`
setting or, when the operator saved one in the admin, from `ScheduleOverride`.

Each entry repeats every hour, day or week (UTC), `offset_minutes` into its period, lasts
`minutes`, and cycles through `rules` (one per period). `ensure_ahead` makes every arena of
the schedule that starts within `ARENA_CREATE_AHEAD_HOURS` (or runs now) and is not made
yet: the unique `slot` makes two processes doing it at once one arena. The task workers'
janitor calls it every round, and so does every request listing arenas.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError

from games.arenas import sequence
from games.arenas.models import Arena, ScheduleOverride
from games.engine import RULES
from games.odds.graded import NoGradedDeal

logger = logging.getLogger(__name__)

PERIODS = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}
#: Every period counts from a Monday, 00:00 UTC.
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Entry:
    name: str
    every: str
    offset: timedelta
    length: timedelta
    rules: tuple[str, ...]

    def slots(self, since: datetime, until: datetime) -> Iterator[tuple[datetime, str]]:
        """(start, rule) of each arena of the entry running at `since` or starting by `until`."""
        period = PERIODS[self.every]
        first = math.floor((since - self.length - self.offset - EPOCH) / period)
        n = first
        while (start := EPOCH + n * period + self.offset) <= until:
            if start + self.length > since:
                yield start, self.rules[n % len(self.rules)]
            n += 1

    def slot_key(self, start: datetime) -> str:
        return f"{self.name}:{start.astimezone(UTC):%Y-%m-%dT%H:%MZ}"


def parse(entries: Any) -> list[Entry]:
    """The schedule's entries, checked; a `ValidationError` names what is wrong."""
    if not isinstance(entries, list):
        raise ValidationError("The arena schedule is a list of entries.")
    parsed = [_entry(item) for item in entries]
    names = [entry.name for entry in parsed]
    if len(set(names)) != len(names):
        raise ValidationError("Each arena schedule entry needs a name of its own.")
    return parsed


def _entry(item: Any) -> Entry:
    if not isinstance(item, Mapping):
        raise ValidationError("An arena schedule entry is an object.")
    name, every = item.get("name"), item.get("every")
    offset, minutes, rules = item.get("offset_minutes", 0), item.get("minutes"), item.get("rules")
    if not isinstance(name, str) or not 0 < len(name) <= 30 or ":" in name:
        raise ValidationError("An entry's name is 1 to 30 characters, without ':'.")
    if every not in PERIODS:
        raise ValidationError(f"Entry {name}: 'every' is one of {', '.join(PERIODS)}.")
    period_minutes = PERIODS[every] / timedelta(minutes=1)
    if not isinstance(minutes, int) or not 10 <= minutes <= min(period_minutes, 24 * 60):
        raise ValidationError(f"Entry {name}: 'minutes' is 10 up to its period's length.")
    if not isinstance(offset, int) or not 0 <= offset < period_minutes:
        raise ValidationError(f"Entry {name}: 'offset_minutes' falls within its period.")
    if not isinstance(rules, Sequence) or not rules or any(rule not in RULES for rule in rules):
        raise ValidationError(f"Entry {name}: 'rules' lists rule letters ({', '.join(RULES)}).")
    return Entry(name, every, timedelta(minutes=offset), timedelta(minutes=minutes), tuple(rules))


def current() -> list[Entry]:
    """The schedule in force: the admin's, else the setting's."""
    override = ScheduleOverride.objects.order_by("-updated_at").first()
    if override is not None:
        return parse(override.entries)
    try:
        return parse(settings.ARENA_SCHEDULE)
    except ValidationError as error:
        raise ImproperlyConfigured(f"ARENA_SCHEDULE: {error.messages[0]}") from error


def ensure_ahead(now: datetime) -> int:
    """Make the schedule's arenas running now or starting within the window (one query when
    they all exist); how many this call tried to make."""
    until = now + timedelta(hours=settings.ARENA_CREATE_AHEAD_HOURS)
    wanted = {
        entry.slot_key(start): (entry, start, rule)
        for entry in current()
        for start, rule in entry.slots(now, until)
    }
    missing = set(wanted) - set(
        Arena.objects.filter(slot__in=wanted).values_list("slot", flat=True)
    )
    made = 0
    for key in sorted(missing):
        entry, start, rule = wanted[key]
        try:
            deals = sequence.choose(rule, entry.length)
        except NoGradedDeal:
            logger.warning("arena %s: no graded %s deal to deal yet", key, rule)
            continue
        arena = Arena(
            kind=Arena.Kind.SCHEDULED,
            name=entry.name,
            slot=key,
            rule=rule,
            starts_at=start,
            ends_at=start + entry.length,
            token=secrets.token_urlsafe(18),
            deals=deals,
        )
        Arena.objects.bulk_create([arena], ignore_conflicts=True)  # a twin may have made it
        made += 1
    return made
