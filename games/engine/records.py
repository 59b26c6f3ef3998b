"""Records: what a player sees of a game (a column, a foundation), what a move or an undo did."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import Card, Suit
from .moves import FOUNDATION, Move

#: What a played move was: a tableau (group) move, a card put on its
#: foundation, or a foundation's top card taken back to a column.
type MoveKind = Literal["move", "foundation", "take-back"]
#: How the move log stores an entry.


@dataclass(frozen=True, slots=True)
class ColumnView:
    """A column as a player sees it: how many cards are face down, then the face-up cards."""

    face_down: int
    face_up: tuple[Card, ...]

    @property
    def card_count(self) -> int:
        """All the cards in the column, face down and face up."""
        return self.face_down + len(self.face_up)


@dataclass(frozen=True, slots=True)
class FoundationView:
    """A foundation slot: its suit, how many cards it holds and its top card."""

    suit: Suit
    count: int
    top: Card | None


@dataclass(frozen=True)
class MoveResult:
    """What a played move did, for the API, the move log and the event stream."""

    move: Move
    kind: MoveKind
    #: The moved cards, bottom (the named card) first.
    cards: tuple[Card, ...]
    #: The column the cards left, or FOUNDATION for a take-back.
    from_column: int
    #: The face-down card this move turned up, if any (it is public from now on).
    turned_up: Card | None
    score_delta: int
    score: int
    move_count: int
    won: bool

    @property
    def is_take_back(self) -> bool:
        """Whether a foundation's top card came back to the tableau."""
        return self.kind == "take-back"

    @property
    def to_foundation(self) -> bool:
        """Whether the card went to its foundation."""
        return self.move.to == FOUNDATION


@dataclass(frozen=True)
class UndoResult:
    """What an undo did; it never names the card that turned face down again."""

    #: The move that was undone.
    move: Move
    #: The cards that went back, bottom first.
    cards: tuple[Card, ...]
    #: Where they went back to: a column, or FOUNDATION when a take-back was undone.
    returned_to: int
    #: Whether a card the undone move had turned up is face down again.
    turned_down: bool
    score_delta: int
    score: int
    move_count: int
    undo_depth: int
