"""The UTC days of the daily deals: today, which days are still running, day text.

A daily deal belongs to a UTC day. While its day runs its code and its games are secret
(games.fairness.visibility) and its ranked games take moves; once the day closes, the code
shows and the ranked games freeze.
"""

from __future__ import annotations

from datetime import UTC, date

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Game


class InvalidDay(ServiceError):
    """A day in a request that is no calendar date (not YYYY-MM-DD, or like 2026-02-30)."""

    code = "invalid-date"
    status = 400
    message = _("That is not a date: days are written like 2026-12-01.")


class DayNotCome(ServiceError):
    """A day still to come: its deal is chosen when it starts, so there is nothing to show."""

    code = "day-not-come"
    status = 404
    message = _("That day has not come yet: its daily deal is chosen when it starts.")


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
