"""The public and private forms of a game: written from a :class:`Game`, the private one read.

The formats live apart from the position (``game.py``), as a chess FEN
reader and writer live apart from the board: this module imports the position, never
the other way round. docs/notation.md specifies both forms. They read the position's
fields directly: both run on every move, so no copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import CARD_TEXT, CardIndex, Suit, card_indexes
from .codes import GameCode
from .errors import InvalidStateError, YukonError
from .game import ON_FOUNDATION, UNDO_LIMIT, Game, record, unpack
from .moves import FOUNDATION, MOVE_BY_TEXT, MOVE_TEXT, Move
from .rules import GROUP_LIMIT, RULES

#: The format tag of the private form.
PRIVATE_FORMAT: Final = "yukon-private-v2"


def public_form(game: Game) -> dict[str, Any]:
    """The player's view, JSON-safe; it never names a face-down card."""
    down = game._down
    return {
        "code": str(game._code) if game._code else None,
        "rule": game._rule.letter,
        "columns": [
            {
                "face_down": down[i],
                "face_up": [CARD_TEXT[c] for c in col[down[i] :]],
            }
            for i, col in enumerate(game._cols)
        ],
        "foundations": [
            {
                "suit": Suit(s).letter,
                "count": n,
                "top": CARD_TEXT[s * 13 + n - 1] if n else None,
            }
            for s, n in enumerate(game._found)
        ],
        "score": game._score,
        "move_count": game._moves,
        "won": game.won,
        "undo_depth": game.undo_depth,
        "cards_on_foundations": game._on_found,
        "legal_moves": [str(move) for move in game._generate()],
    }


def private_form(game: Game) -> dict[str, Any]:
    """The full state, JSON-safe, face-down cards and undo window included."""
    down = game._down
    return {
        "format": PRIVATE_FORMAT,
        "code": str(game._code) if game._code else None,
        "rule": game._rule.letter,
        "columns": [
            {
                "face_down": [CARD_TEXT[c] for c in col[: down[i]]],
                "face_up": [CARD_TEXT[c] for c in col[down[i] :]],
            }
            for i, col in enumerate(game._cols)
        ],
        "foundations": list(game._found),
        "score": game._score,
        "move_count": game._moves,
        # One short array per record, [move, from, cards, turned]: the snapshot is
        # rewritten on every move, and object records made it three times larger.
        "undo": [
            [MOVE_TEXT[c * 8 + to + 1], FOUNDATION if src == ON_FOUNDATION else src, n, turned]
            for c, to, src, n, turned in map(unpack, game._stack[-UNDO_LIMIT:])
        ],
    }


def read_private(data: Mapping[str, Any]) -> Game:
    """Rebuild a game from :func:`private_form`; raises :class:`InvalidStateError`."""
    try:
        if data["format"] != PRIVATE_FORMAT:
            raise InvalidStateError(f"unknown private format {data['format']!r}")
        code = GameCode.parse(data["code"]) if data["code"] is not None else None
        rule = RULES[data["rule"]]
        if code is not None and code.rule != rule:
            raise InvalidStateError(f"rule {rule.letter} does not match the code {code}")
        cols: list[list[CardIndex]] = []
        down: list[int] = []
        for column in data["columns"]:
            hidden = card_indexes(column["face_down"])
            cols.append(hidden + card_indexes(column["face_up"]))
            down.append(len(hidden))
        game = Game(
            rule,
            cols,
            down,
            [int(n) for n in data["foundations"]],
            code=code,
            score=data["score"],
            move_count=data["move_count"],
        )
        for entry in data["undo"]:
            text, source, n, turned = entry
            move = MOVE_BY_TEXT.get(text) or Move.parse(text)
            src = ON_FOUNDATION if source == FOUNDATION else source
            counts = (src, n, turned)
            if not all(type(value) is int for value in counts) or not (
                0 <= src <= ON_FOUNDATION and 1 <= n <= GROUP_LIMIT and turned in (0, 1)
            ):
                raise InvalidStateError(f"bad undo record {entry!r}")
            game._stack.append(record(move.card.index, move.to, src, n, turned))
    except YukonError as error:
        raise InvalidStateError(f"bad private state: {error.message}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise InvalidStateError(f"bad private state: {error!r}") from None
    if len(game._stack) > UNDO_LIMIT:
        raise InvalidStateError(f"more than {UNDO_LIMIT} undo records")
    return game
