"""Error sentences in the request's language; the machine ``code`` always stays English.

The engine is Django-free and speaks English: its refusals carry a stable
``code`` plus ``params`` (cards, columns, counts), and this module says the
same thing in the active language from those two. English keeps the engine's
own sentence. A refusal whose parameters match no sentence here falls back to
the code's translated description (``ERROR_CODES``), never to silence.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext as translate
from django.utils.translation import gettext_lazy as _

from games.engine import ERROR_CODES, Card, InvalidCardError, YukonError
from games.errors import ServiceError

#: (code, sorted parameter names) -> the sentence using those parameters.
REFUSALS: dict[tuple[str, tuple[str, ...]], Promise] = {
    ("same-column", ("card", "suit")): _("%(card)s is already on the %(suit)s foundation."),
    ("same-column", ("card", "column")): _("%(card)s is already in column %(column)s."),
    ("not-top-card", ("card", "cover")): _(
        "Only the last card of a column goes to a foundation: %(card)s is covered by %(cover)s."
    ),
    ("not-top-card", ("card", "suit", "top")): _(
        "Only the top card of a foundation can be taken back: %(card)s lies under %(top)s."
    ),
    ("card-not-in-play", ("card", "suit", "top")): _(
        "%(card)s is out of play: it lies under %(top)s on the %(suit)s foundation."
    ),
    ("foundation-order", ("card", "next", "suit")): _(
        "A foundation builds up from the Ace one rank at a time: the %(suit)s foundation "
        "needs %(next)s next, not %(card)s."
    ),
    ("foundation-order", ("card", "suit")): _("The %(suit)s foundation is already complete."),
    ("group-too-large", ("card", "group", "limit")): _(
        "A group moves at most %(limit)s cards: %(card)s leads a group of %(group)s."
    ),
    ("card-face-down", ("card",)): _("Only face-up cards can be moved: %(card)s is face down."),
    ("empty-column-needs-king", ("card",)): _(
        "An empty column only accepts a King: %(card)s is not a King."
    ),
    ("empty-column-needs-king", ("card", "group")): _(
        "An empty column only accepts a King: %(card)s leads this group of %(group)s cards."
    ),
    ("wrong-rank", ("card", "column", "ranks", "target")): _(
        "%(card)s cannot go on %(target)s in column %(column)s: only a %(ranks)s fits there."
    ),
    ("wrong-rank", ("card", "column", "target")): _(
        "%(card)s cannot go on %(target)s in column %(column)s: nothing goes on an Ace."
    ),
    ("wrong-colour", ("card", "column", "target")): _(
        "%(card)s cannot go on %(target)s in column %(column)s: "
        "Classic builds red on black and black on red."
    ),
    ("wrong-suit", ("card", "column", "target")): _(
        "%(card)s cannot go on %(target)s in column %(column)s: this rule builds in the same suit."
    ),
    ("nothing-to-undo", ("limit",)): _(
        "Nothing to undo: only the last %(limit)s moves can be undone."
    ),
    ("no-destination", ("card",)): _("No column accepts %(card)s and what lies on it."),
}

#: Service refusal code -> its sentence (the English message may name ids; these need none).
SERVICE_MESSAGES: dict[str, Promise] = {
    "game-not-found": _("There is no such game."),
    "not-your-game": _("This game belongs to another player."),
    "stale-version": _("This game changed elsewhere: here is the table as it is now."),
    "game-finished": _("This game is over: start a new game."),
    "rule-mismatch": _("The deal code and the chosen rule do not match."),
    "daily-closed": _("This daily deal is closed: its ranking is final."),
    "daily-in-progress": _("Other players' daily games can be watched once the day is over."),
    "session-required": _(
        "Managing API tokens needs a signed-in session (log in with your password): "
        "an API token cannot list, create or revoke tokens."
    ),
    "service-error": _("The request could not be carried out."),
}

#: Parameters holding a card's text: shown as rank and suit symbol (Q♥), as on the table.
CARD_PARAMS = frozenset({"card", "cover", "top", "next", "target"})


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def _display(name: str, value: str) -> str:
    if name not in CARD_PARAMS:
        return value
    try:
        return Card.parse(value).symbol
    except InvalidCardError:
        return value


def engine_message(error: YukonError) -> str:
    """The engine refusal in the active language (English: the engine's own sentence)."""
    if _english():
        return error.message
    sentence = REFUSALS.get((error.code, tuple(sorted(error.params))))
    if sentence is None:
        return translate(ERROR_CODES.get(error.code, error.message))
    return str(sentence) % {name: _display(name, value) for name, value in error.params.items()}


def service_message(error: ServiceError) -> str:
    """The service refusal in the active language (English: the service's own sentence)."""
    sentence = SERVICE_MESSAGES.get(error.code)
    if _english() or sentence is None:
        return error.message
    return str(sentence)
