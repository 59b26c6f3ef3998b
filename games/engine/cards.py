"""Suits and cards: small value types that round-trip through text.

The engine works on card indexes (``suit * 13 + rank - 1``, 0..51) for speed;
:class:`Card` is the public face of an index, and the 52 instances are shared.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from .errors import InvalidCardError

#: A card as the engine stores it: ``suit * 13 + rank - 1``.
type CardIndex = int


class Suit(enum.IntEnum):
    """The four suits, in foundation order ♠ ♥ ♦ ♣."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """``♠``, ``♥``, ``♦`` or ``♣``."""
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``/``♠`` (any case, white symbols too)."""
        try:
            return cls(_SUIT_TEXT[text.upper()])
        except (KeyError, AttributeError):
            raise InvalidCardError(f"{text!r} is not a suit (expected S, H, D or C)") from None


_SUIT_TEXT = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}  # fmt: skip

_RANK_TEXT = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13,
}  # fmt: skip

RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A playing card.

    >>> Card.parse("td")
    Card.parse('10D')
    >>> str(Card.parse("A♠")), Card.parse("KH").rank, Card.parse("KH").is_red
    ('AS', 13, True)
    """

    rank: int
    suit: Suit
    index: CardIndex = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise InvalidCardError(f"rank {self.rank!r} is not in 1..13")
        object.__setattr__(self, "suit", Suit(self.suit))
        object.__setattr__(self, "index", self.suit * 13 + self.rank - 1)

    @classmethod
    def from_index(cls, index: CardIndex) -> Card:
        """The shared card for an engine index 0..51."""
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10D``, ``TD``, ``10♦``, ``td``, ``A♠``... (case-insensitive)."""
        if not isinstance(text, str) or not 2 <= len(text) <= 3:
            raise InvalidCardError(f"{text!r} is not a card (expected e.g. 10D, AS, K♥)")
        rank = _RANK_TEXT.get(text[:-1].upper())
        suit = _SUIT_TEXT.get(text[-1].upper())
        if rank is None or suit is None:
            raise InvalidCardError(f"{text!r} is not a card (expected e.g. 10D, AS, K♥)")
        return CARDS[suit * 13 + rank - 1]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self.suit.is_red

    @property
    def symbol(self) -> str:
        """A display form such as ``10♦``."""
        return RANK_NAMES[self.rank] + self.suit.symbol

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


#: The 52 shared cards, by engine index (AS..KS, AH..KH, AD..KD, AC..KC).
CARDS: Final[tuple[Card, ...]] = tuple(Card(r, Suit(s)) for s in range(4) for r in range(1, 14))
#: Canonical text of each card by index.
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
#: Display text of each card by index (``10♦``), as players read it in sentences.
CARD_SYMBOLS: tuple[str, ...] = tuple(c.symbol for c in CARDS)
#: Indexes of the four Kings.
KINGS: Final[tuple[CardIndex, ...]] = (12, 25, 38, 51)

#: Canonical card text -> index: the fast path for stored states (always canonical).
_INDEX_OF_TEXT: dict[str, CardIndex] = {text: index for index, text in enumerate(CARD_TEXT)}


#: Cards as a hand-made layout or a stored state gives them: a sequence of cards
#: or card texts, or one string of card texts separated by spaces.
type LayoutCards = Sequence[Card | str] | str


def card_indexes(cards: LayoutCards) -> list[CardIndex]:
    """The indexes of ``cards`` (canonical text, as stored states hold, is the fast path)."""
    items = cards.split() if isinstance(cards, str) else cards
    return [_card_index(item) for item in items]


def _card_index(item: Card | str) -> CardIndex:
    if isinstance(item, Card):
        return item.index
    index = _INDEX_OF_TEXT.get(item)
    return index if index is not None else Card.parse(item).index
