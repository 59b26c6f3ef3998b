"""Rules as data: how a card builds on another in the tableau, group size, scoring.

A :class:`Rule` is a small frozen record, so a new variant is a few lines:
Russian Solitaire would be ``Rule("U", "Russian", match="same-suit")`` and
Alaska ``Rule("A", "Alaska", match="same-suit", rank_steps=(1, -1))``.
What a refusal says lives in :mod:`.refusals`, not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .cards import Card
from .errors import InvalidGameCodeError

#: How the moved card's suit must relate to the suit of the card it goes on.
type SuitMatch = Literal["opposite-colour", "any", "same-suit"]

#: The largest group a tableau move carries.
GROUP_LIMIT: Final = 20
#: The scoring rule: a move earns these for a card put on its foundation and for a
#: face-down card it turns up; nothing else scores (a take-back keeps the points),
#: and an undo takes the move's points back.
FOUNDATION_POINTS: Final = 10
TURN_UP_POINTS: Final = 5


@dataclass(frozen=True)
class Rule:
    """A tableau building rule, named by its game-code letter.

    ``rank_steps`` lists the allowed ``target.rank - moved.rank`` values
    (``(1,)`` builds down by one); ``match`` relates the suits.
    """

    letter: str
    name: str
    match: SuitMatch = "opposite-colour"
    rank_steps: tuple[int, ...] = (1,)

    def suits_fit(self, card: Card, target: Card) -> bool:
        """Whether ``card``'s suit may go on ``target``'s suit (rank aside)."""
        if self.match == "any":
            return True
        if self.match == "same-suit":
            return card.suit == target.suit
        return card.is_red != target.is_red

    def ranks_fit(self, card: Card, target: Card) -> bool:
        """Whether ``card``'s rank may go on ``target``'s rank (suit aside)."""
        return target.rank - card.rank in self.rank_steps

    def builds_on(self, card: Card, target: Card) -> bool:
        """Whether ``card`` (leading a group) may go on ``target`` in a column."""
        return self.ranks_fit(card, target) and self.suits_fit(card, target)

    @property
    def suit_error(self) -> str:
        """The machine code used when only the suit relation fails (``any`` never fails)."""
        return "wrong-suit" if self.match == "same-suit" else "wrong-colour"

    @classmethod
    def from_letter(cls, letter: str) -> Rule:
        """The rule for a game-code letter (case-insensitive)."""
        if isinstance(letter, str) and len(letter) == 1 and letter.isascii():
            rule = RULES.get(letter.upper())
            if rule is not None:
                return rule
        raise InvalidGameCodeError(
            f"{letter!r} is not a rule letter (expected one of {', '.join(RULES)})",
            code="code-rule",
        )

    def __repr__(self) -> str:
        return f"Rule.from_letter({self.letter!r})"


CLASSIC = Rule("C", "Classic", match="opposite-colour")
RELAXED = Rule("R", "Relaxed", match="any")
RUSSIAN = Rule("U", "Russian", match="same-suit")
ALASKA = Rule("A", "Alaska", match="same-suit", rank_steps=(1, -1))

#: Every rule the service plays, by letter.
RULES: dict[str, Rule] = {rule.letter: rule for rule in (CLASSIC, RELAXED, RUSSIAN, ALASKA)}
