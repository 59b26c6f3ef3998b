"""The Yukon Solitaire engine: pure standard-library Python, the single source of rules.

Value types round-trip through text (``Card.parse("10D")``, ``Move.parse("10D>3")``,
``GameCode.parse("YU1-C-AAAAAAB")``); :class:`Game` holds a position with checked
``play``/``undo`` for players and unchecked ``push``/``pop`` for search.

The hot modules may run compiled by mypyc (:mod:`.native`); :func:`compiled` says
whether they do. The results are the same either way.
"""

from __future__ import annotations

# First: it decides, before any compiled module could load, whether they may.
from . import native
from .cards import CARDS, Card, CardIndex, LayoutCards, Suit
from .codes import CODE_PREFIX, DEAL_COUNT, GameCode
from .deal import COLUMN_SIZES, DEV_DEAL_KEY, FACE_DOWN_COUNTS, deal_cards
from .errors import (
    CODES,
    ErrorCode,
    IllegalMoveError,
    InvalidCardError,
    InvalidGameCodeError,
    InvalidMoveError,
    InvalidStateError,
    YukonError,
)
from .game import DECK_SIZE, UNDO_LIMIT, Game, LegalMoves
from .moves import COLUMN_COUNT, FOUNDATION, Move
from .native import compiled
from .records import ColumnView, FoundationView, MoveKind, MoveResult, UndoResult
from .refusals import REFUSALS, Refusal
from .replay import UNDO_ENTRY, replay
from .rules import ALASKA, CLASSIC, GROUP_LIMIT, RELAXED, RULES, RUSSIAN, Rule, SuitMatch
from .serialization import private_form, public_form, read_private

__all__ = [
    "ALASKA",
    "CARDS",
    "CLASSIC",
    "CODES",
    "CODE_PREFIX",
    "COLUMN_COUNT",
    "COLUMN_SIZES",
    "DEAL_COUNT",
    "DECK_SIZE",
    "DEV_DEAL_KEY",
    "FACE_DOWN_COUNTS",
    "FOUNDATION",
    "GROUP_LIMIT",
    "REFUSALS",
    "RELAXED",
    "RULES",
    "RUSSIAN",
    "UNDO_ENTRY",
    "UNDO_LIMIT",
    "Card",
    "CardIndex",
    "ColumnView",
    "ErrorCode",
    "FoundationView",
    "Game",
    "GameCode",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidGameCodeError",
    "InvalidMoveError",
    "InvalidStateError",
    "LayoutCards",
    "LegalMoves",
    "Move",
    "MoveKind",
    "MoveResult",
    "Refusal",
    "Rule",
    "Suit",
    "SuitMatch",
    "UndoResult",
    "YukonError",
    "compiled",
    "deal_cards",
    "native",
    "private_form",
    "public_form",
    "read_private",
    "replay",
]
