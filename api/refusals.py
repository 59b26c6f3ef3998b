"""Refusal sentences in the request's language; the machine ``code`` always stays English.

The engine is Django-free and speaks English: a refused move carries its
``template`` from ``games.engine.refusals`` and the ``params`` it was formatted
with, so translating the template and formatting it again says the same
sentence in the active language (English: the engine's own). Any other engine
error falls back to the code's translated description (``ERROR_CODES``).
Service refusals have their sentences here, as the service's English ones may
name ids.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext as translate
from django.utils.translation import gettext_lazy as _

from games.engine import ERROR_CODES, YukonError
from games.errors import ServiceError

#: Service refusal code -> its sentence (the English message may name ids; these need none).
SERVICE_MESSAGES: dict[str, Promise] = {
    "game-not-found": _("There is no such game."),
    "not-your-game": _("This game belongs to another player."),
    "stale-version": _("This game changed elsewhere: here is the table as it is now."),
    "game-finished": _("This game is over: start a new game."),
    "rule-mismatch": _("The deal code and the chosen rule do not match."),
    "daily-closed": _("This daily deal is closed: its ranking is final."),
    "no-daily-deal": _(
        "There is no daily deal for this rule today: none was proven winnable in time."
    ),
    "invalid-date": _("That is not a date: days are written like 2026-12-01."),
    "day-not-come": _("That day has not come yet: its daily deal is chosen when it starts."),
    "daily-in-progress": _("Other players' daily games can be watched once the day is over."),
    "race-in-progress": _("Other racers' games can be watched once the race is over."),
    "race-not-found": _("There is no such race."),
    "already-racing": _("You are already in a race or waiting for a quick match."),
    "race-started": _("This race has started: it takes no more players."),
    "race-full": _("This race is full."),
    "already-ready": _("You are ready already."),
    "not-a-racer": _("You are not racing in this race."),
    "not-race-creator": _("Only the race's creator can start it."),
    "too-few-racers": _("A race needs two players at least."),
    "race-counting-down": _("The countdown has begun: you can resign once the race starts."),
    "race-running": _("The race is running: resign your game to leave it."),
    "race-over": _("This race is over: its games take no more moves."),
    "race-not-over": _("This race is not over yet."),
    "race-no-assists": _("Hints and winnability are off during a race."),
    "deal-in-play": _(
        "You have a ranked attempt of this deal in play (today's daily or a race): the "
        "solver's help on it opens once that attempt ends."
    ),
    "code-needs-private-room": _("A chosen deal code needs a private room."),
    "cross-site-request": _(
        "This request came from another site's page: sign in or play as a guest "
        "on this site itself."
    ),
    "session-required": _(
        "Managing API tokens needs a signed-in session (log in with your password): "
        "an API token cannot list, create or revoke tokens."
    ),
    "not-a-guest": _("Only a guest can be upgraded; this account is registered."),
    "username-taken": _(
        "This username is taken: names that differ only in letter case or character width "
        "are one name."
    ),
    "missing-scope": _(
        "This token was not granted the scope this request needs (named in 'scope')."
    ),
    "service-error": _("The request could not be carried out."),
}


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def engine_message(error: YukonError) -> str:
    """The engine refusal in the active language, from the engine's own template."""
    if error.template is not None:
        return translate(error.template) % error.params
    if _english():
        return error.message
    return translate(ERROR_CODES.get(error.code, error.message))


def service_message(error: ServiceError) -> str:
    """The service refusal in the active language (English: the service's own sentence)."""
    sentence = SERVICE_MESSAGES.get(error.code)
    if _english() or sentence is None:
        return error.message
    return str(sentence)
