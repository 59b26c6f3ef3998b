"""Every sentence a refused move is explained with: one table, for English and for translators.

Each :class:`Refusal` pairs a machine code (``errors.CODES``) with a
``%(name)s`` template. The engine formats the English sentence from it; the
API translates the very same template with gettext (``gettext_noop`` marks it
for ``makemessages``) and formats it with the same params, so every language
says the same thing. Cards in params are display text (``7♦``, ``10♠``), as
on the table, in every language.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import IllegalMoveError, gettext_noop
from .rules import ALASKA, CLASSIC, RUSSIAN, Rule


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal sentence: its machine code and its translatable template."""

    code: str
    template: str

    def error(self, **params: str) -> IllegalMoveError:
        """The error to raise, its English message formatted from the template."""
        return IllegalMoveError(
            self.template % params, code=self.code, params=params, template=self.template
        )


GAME_WON_MOVE = Refusal("game-won", gettext_noop("The game is won: no more moves."))
GAME_WON_UNDO = Refusal("game-won", gettext_noop("The game is won: no more undos."))
FACE_DOWN = Refusal(
    "card-face-down", gettext_noop("Only face-up cards can be moved: %(card)s is face down.")
)
OUT_OF_PLAY = Refusal(
    "card-not-in-play",
    gettext_noop("%(card)s is out of play: it lies under %(top)s on the %(suit)s foundation."),
)
UNDER_FOUNDATION_TOP = Refusal(
    "not-top-card",
    gettext_noop(
        "Only the top card of a foundation can be taken back: %(card)s lies under %(top)s."
    ),
)
COVERED = Refusal(
    "not-top-card",
    gettext_noop(
        "Only the last card of a column goes to a foundation: %(card)s is covered by %(cover)s."
    ),
)
FOUNDATION_ORDER = Refusal(
    "foundation-order",
    gettext_noop(
        "A foundation builds up from the Ace one rank at a time: the %(suit)s foundation "
        "needs %(next)s next, not %(card)s."
    ),
)
ALREADY_ON_FOUNDATION = Refusal(
    "same-column", gettext_noop("%(card)s is already on the %(suit)s foundation.")
)
ALREADY_IN_COLUMN = Refusal(
    "same-column", gettext_noop("%(card)s is already in column %(column)s.")
)
GROUP_TOO_LARGE = Refusal(
    "group-too-large",
    gettext_noop("A group moves at most %(limit)s cards: %(card)s leads a group of %(group)s."),
)
NOT_A_KING = Refusal(
    "empty-column-needs-king",
    gettext_noop("An empty column only accepts a King: %(card)s is not a King."),
)
GROUP_WITHOUT_KING = Refusal(
    "empty-column-needs-king",
    gettext_noop(
        "An empty column only accepts a King: %(card)s leads this group of %(group)s cards."
    ),
)
WRONG_RANK = Refusal(
    "wrong-rank",
    gettext_noop(
        "%(card)s cannot go on %(target)s in column %(column)s: "
        "only a card of rank %(ranks)s fits there."
    ),
)
WRONG_RANK_UP_OR_DOWN = Refusal(
    "wrong-rank",
    gettext_noop(
        "%(card)s cannot go on %(target)s in column %(column)s: "
        "Alaska builds one rank up or down, so only a card of rank %(ranks)s fits there."
    ),
)
NOTHING_ON_AN_ACE = Refusal(
    "wrong-rank",
    gettext_noop("%(card)s cannot go on %(target)s in column %(column)s: nothing goes on an Ace."),
)
WRONG_COLOUR = Refusal(
    "wrong-colour",
    gettext_noop(
        "%(card)s cannot go on %(target)s in column %(column)s: "
        "Classic builds red on black and black on red."
    ),
)
WRONG_SUIT = Refusal(
    "wrong-suit",
    gettext_noop(
        "%(card)s cannot go on %(target)s in column %(column)s: "
        "Russian builds down in the same suit."
    ),
)
WRONG_SUIT_UP_OR_DOWN = Refusal(
    "wrong-suit",
    gettext_noop(
        "%(card)s cannot go on %(target)s in column %(column)s: "
        "Alaska builds up or down in the same suit."
    ),
)
NOTHING_TO_UNDO = Refusal(
    "nothing-to-undo",
    gettext_noop("Nothing to undo: only the last %(limit)s moves can be undone."),
)
NO_DESTINATION = Refusal(
    "no-destination", gettext_noop("No column accepts %(card)s and what lies on it.")
)

#: Every refusal, in the order the checks run.
REFUSALS: tuple[Refusal, ...] = (
    GAME_WON_MOVE,
    GAME_WON_UNDO,
    FACE_DOWN,
    OUT_OF_PLAY,
    UNDER_FOUNDATION_TOP,
    COVERED,
    FOUNDATION_ORDER,
    ALREADY_ON_FOUNDATION,
    ALREADY_IN_COLUMN,
    GROUP_TOO_LARGE,
    NOT_A_KING,
    GROUP_WITHOUT_KING,
    WRONG_RANK,
    WRONG_RANK_UP_OR_DOWN,
    NOTHING_ON_AN_ACE,
    WRONG_COLOUR,
    WRONG_SUIT,
    WRONG_SUIT_UP_OR_DOWN,
    NOTHING_TO_UNDO,
    NO_DESTINATION,
)

#: The sentence for a card of the wrong suit or colour names the rule; Relaxed
#: (any suit) never refuses one.
SUIT_REFUSALS: dict[Rule, Refusal] = {
    CLASSIC: WRONG_COLOUR,
    RUSSIAN: WRONG_SUIT,
    ALASKA: WRONG_SUIT_UP_OR_DOWN,
}
#: A rule that builds other than one rank down names itself in its wrong-rank sentence.
RANK_REFUSALS: dict[Rule, Refusal] = {ALASKA: WRONG_RANK_UP_OR_DOWN}


def rank_refusal(rule: Rule) -> Refusal:
    """The refusal for a card of a rank ``rule`` does not build on (not on an Ace)."""
    return RANK_REFUSALS.get(rule, WRONG_RANK)
