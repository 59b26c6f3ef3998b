"""The engine's error family.

Every refusal carries a stable machine ``code`` (the API and the "interactive
rules" assist switch on it), an English ``message`` naming the cards involved,
and the ``rule`` family that refused, so a client can group related refusals.
A refused move (:class:`IllegalMoveError`) is built from a template of
:mod:`.refusals` and also carries that ``template`` and its ``params`` (cards,
columns, counts as display text), so a layer outside the engine can say the
same sentence in another language.
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(text: str) -> str:
    """Mark ``text`` for translation catalogues (the engine itself stays English-only)."""
    return text


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """What a machine code means: the family of rules that refuses with it, and a short
    description as the API documents it (translatable; the engine itself speaks English)."""

    rule: str
    description: str


#: Every code the engine refuses with: one table, for the errors, the API and translators.
CODES: dict[str, ErrorCode] = {
    # Text that is not a card, a move or a game code.
    "invalid-card": ErrorCode(
        "syntax", gettext_noop("The text is not a card (expected e.g. 10D, TD, 10♦, AS, KH).")
    ),
    "invalid-move": ErrorCode(
        "syntax", gettext_noop("The text is not a move (expected e.g. 10D>3 or 7S>F).")
    ),
    "code-format": ErrorCode(
        "code", gettext_noop("A game code has three parts separated by '-', like YU1-C-AAAAAAB.")
    ),
    "code-prefix": ErrorCode("code", gettext_noop("A game code starts with YU1.")),
    "code-rule": ErrorCode(
        "code", gettext_noop("The rule letter of a game code is unknown (C, R, U or A).")
    ),
    "code-length": ErrorCode(
        "code", gettext_noop("The deal number of a game code has exactly 7 letters.")
    ),
    "code-characters": ErrorCode(
        "code", gettext_noop("The deal number of a game code uses only the letters A-Z.")
    ),
    "code-number": ErrorCode("code", gettext_noop("A deal number is outside 0..26**7-1.")),
    "invalid-state": ErrorCode(
        "state", gettext_noop("A stored game state or hand-made layout is malformed.")
    ),
    # Refused moves, one code per refusing rule.
    "empty-column-needs-king": ErrorCode(
        "empty-column", gettext_noop("An empty column only accepts a King (with what lies on it).")
    ),
    "wrong-rank": ErrorCode(
        "build",
        gettext_noop(
            "The moved card must be exactly one rank lower than the card it goes on "
            "(in Alaska one rank lower or higher)."
        ),
    ),
    "wrong-colour": ErrorCode(
        "build", gettext_noop("Classic: the moved card must be of the opposite colour.")
    ),
    "wrong-suit": ErrorCode(
        "build", gettext_noop("Russian and Alaska: the moved card must be of the same suit.")
    ),
    "card-face-down": ErrorCode("card", gettext_noop("A face-down card cannot be moved.")),
    "card-not-in-play": ErrorCode(
        "card", gettext_noop("The card lies under the top of its foundation: it is out of play.")
    ),
    "group-too-large": ErrorCode("group", gettext_noop("A group moves at most 20 cards.")),
    "not-top-card": ErrorCode(
        "foundation",
        gettext_noop(
            "Only the last card of a column goes to a foundation, "
            "and only a foundation's top card can be taken back."
        ),
    ),
    "foundation-order": ErrorCode(
        "foundation",
        gettext_noop("A foundation takes its suit in order, Ace first, one rank at a time."),
    ),
    "same-column": ErrorCode(
        "destination", gettext_noop("The destination is where the card already is.")
    ),
    "game-won": ErrorCode("game-over", gettext_noop("The game is won: no more moves or undos.")),
    "nothing-to-undo": ErrorCode(
        "undo", gettext_noop("There is no move left to undo (at most the last 100 moves).")
    ),
    "no-destination": ErrorCode(
        "destination", gettext_noop("No column accepts the card and what lies on it.")
    ),
}


class YukonError(Exception):
    """Base of every engine error: a machine code, a message and a rule family."""

    default_code = "invalid-state"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: dict[str, str] | None = None,
        template: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code: str = code if code is not None else self.default_code
        self.message: str = message
        self.params: dict[str, str] = params or {}
        #: The translators' source string ``message`` was formatted from, if any.
        self.template: str | None = template

    @property
    def rule(self) -> str:
        """The family of rules that refused (e.g. ``build``, ``undo``)."""
        known = CODES.get(self.code)
        return known.rule if known is not None else "syntax"

    def to_dict(self) -> dict[str, str]:
        """A JSON-safe form for API answers."""
        return {"code": self.code, "rule": self.rule, "message": self.message}


class InvalidCardError(YukonError, ValueError):
    """Text that is not a card."""

    default_code = "invalid-card"


class InvalidMoveError(YukonError, ValueError):
    """Text that is not a move (syntax, not legality)."""

    default_code = "invalid-move"


class InvalidGameCodeError(YukonError, ValueError):
    """Text that is not a game code; ``code`` says which part is wrong."""

    default_code = "code-format"


class InvalidStateError(YukonError, ValueError):
    """A private form or hand-made layout that does not describe a game."""

    default_code = "invalid-state"


class IllegalMoveError(YukonError, ValueError):
    """A well-formed move (or undo, or assist) that the rules refuse."""

    default_code = "wrong-rank"
