"""Moves: "this card goes there", written ``10D>3`` (column 3) or ``7S>F``."""

from __future__ import annotations

from typing import Final

from .cards import CARD_TEXT, CARDS, Card
from .errors import InvalidCardError, InvalidMoveError

#: ``Move.to`` for a card's own foundation (the suit picks the slot).
FOUNDATION: Final = -1
#: Columns on the tableau.
COLUMN_COUNT: Final = 7


class Move:
    """A card and where it goes: a column index 0..6 or :data:`FOUNDATION`.

    A take-back is a move of a foundation's top card to a column.

    >>> Move.parse("td>3")
    Move.parse('10D>3')
    >>> Move.parse("7S>f").to == FOUNDATION
    True
    """

    __slots__ = ("card", "index", "to")

    card: Card
    to: int
    #: ``card.index * 8 + to + 1``: a dense integer id, used by the engine's tables.
    index: int

    def __init__(self, card: Card, to: int) -> None:
        if not (isinstance(to, int) and FOUNDATION <= to < COLUMN_COUNT):
            raise InvalidMoveError(f"{to!r} is not a column index 0..6 or FOUNDATION")
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "index", card.index * 8 + to + 1)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``<card>><column 1-7 or F>`` (case-insensitive, no spaces)."""
        move = MOVE_BY_TEXT.get(text) if isinstance(text, str) else None
        if move is not None:
            return move
        if not isinstance(text, str) or text.count(">") != 1:
            raise InvalidMoveError(f"{text!r} is not a move (expected e.g. 10D>3 or 7S>F)")
        card_text, dest = text.split(">")
        try:
            card = Card.parse(card_text)
        except InvalidCardError as error:
            raise InvalidMoveError(f"{text!r} is not a move: {error.message}") from None
        if dest in ("F", "f"):
            return MOVES[card.index * 8]
        if len(dest) == 1 and "1" <= dest <= "7":
            return MOVES[card.index * 8 + int(dest)]
        raise InvalidMoveError(
            f"{text!r} is not a move: {dest!r} is not a column 1-7 or F (foundation)"
        )

    @property
    def to_foundation(self) -> bool:
        """Whether the card goes to its foundation."""
        return self.to == FOUNDATION

    def __str__(self) -> str:
        return MOVE_TEXT[self.index]

    def __repr__(self) -> str:
        return f"Move.parse({MOVE_TEXT[self.index]!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index


def _text(index: int) -> str:
    to = index % 8 - 1
    return CARD_TEXT[index // 8] + (">F" if to == FOUNDATION else f">{to + 1}")


#: Every possible move, by ``Move.index`` (52 cards x 8 destinations).
MOVES: Final[tuple[Move, ...]] = tuple(Move(CARDS[i // 8], i % 8 - 1) for i in range(52 * 8))
#: Canonical text of every move, by ``Move.index``.
MOVE_TEXT: tuple[str, ...] = tuple(_text(i) for i in range(52 * 8))
#: Canonical text -> move, the fast path of :meth:`Move.parse`.
MOVE_BY_TEXT: dict[str, Move] = {MOVE_TEXT[i]: MOVES[i] for i in range(52 * 8)}
