"""The position and its transitions: tableau, foundations, score, undo, legal moves, assists.

Cards are engine indexes (0..51) inside: each column is a list bottom to top
with a face-down count, and a per-card location index makes "is this move
legal?" O(1). ``play``/``undo`` are the checked player path; ``push``/``pop``
are the unchecked exact-inverse path for search.

Legal moves come in a fixed, documented order: by destination column 1..7
(for each, the cards that fit its last card in engine-index order: ♠ A..K,
♥, ♦, ♣; for an empty column the Kings), then foundation moves by column 1..7.

The public and private forms are read and written by :mod:`.serialization`, which
imports this module (never the reverse);
refusal sentences come from :mod:`.refusals`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Final

from . import refusals
from .cards import (
    CARD_SYMBOLS,
    CARD_TEXT,
    CARDS,
    KINGS,
    RANK_NAMES,
    Card,
    CardIndex,
    LayoutCards,
    Suit,
    card_indexes,
)
from .codes import GameCode
from .deal import FACE_DOWN_COUNTS, deal_indexes, layout
from .errors import InvalidStateError, YukonError
from .moves import COLUMN_COUNT, FOUNDATION, MOVES, Move
from .records import ColumnView, FoundationView, MoveKind, MoveResult, UndoResult
from .rules import CLASSIC, FOUNDATION_POINTS, GROUP_LIMIT, TURN_UP_POINTS, Rule

#: How many of the latest moves a player can undo.
UNDO_LIMIT: Final = 100
#: Cards in a full deck; the game is won when all are on the foundations.
DECK_SIZE: Final = 52

# Per-card locations: 0..6 face up in that column, or one of these.
ON_FOUNDATION: Final = 7
_FACE_DOWN: Final = 8

#: An undo-stack record, one int (:func:`record`, :func:`unpack`): the move's
#: ``Move.index`` (bits 0-8), its source (a column, or ``ON_FOUNDATION`` for a
#: take-back), the cards moved and 1 when a card was turned up. One int rather
#: than a tuple: :meth:`Game.push` makes one per move.
type Record = int


def record(c: CardIndex, to: int, src: int, n: int, turned: int) -> Record:
    """The undo record of a move (``to`` is a column or ``FOUNDATION``).

    >>> unpack(record(51, FOUNDATION, 6, 1, 1))
    (51, -1, 6, 1, 1)
    """
    return c * 8 + to + 1 | src << 9 | n << 12 | turned << 18


def unpack(entry: Record) -> tuple[int, int, int, int, int]:
    """``(card, to, from, cards moved, turned up)`` of an undo record."""
    return (entry & 511) >> 3, (entry & 7) - 1, entry >> 9 & 7, entry >> 12 & 63, entry >> 18


@functools.cache
def _accepts(rule: Rule) -> tuple[tuple[CardIndex, ...], ...]:
    """For each card, the cards that may be placed on it under ``rule``."""
    return tuple(
        tuple(card.index for card in CARDS if rule.builds_on(card, target)) for target in CARDS
    )


class LegalMoves:
    """A lazy view of the legal moves: iterate, ``in`` (O(1)), ``count()``."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        return iter(self._game._generate())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._game._is_legal(move.card.index, move.to)

    def count(self) -> int:
        """How many moves are legal."""
        return len(self._game._generate())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return bool(self._game._generate())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self))})>"


class Game:
    """A Yukon game in progress.

    >>> from games.engine import DEV_DEAL_KEY
    >>> game = Game.new(GameCode.parse("YU1-C-AAAAAAB"), DEV_DEAL_KEY)
    >>> game.column(0).face_down, game.column(6).face_down, game.score
    (0, 6, 0)
    """

    __slots__ = (
        "_accepts",
        "_code",
        "_cols",
        "_down",
        "_found",
        "_loc",
        "_moves",
        "_on_found",
        "_rule",
        "_score",
        "_stack",
    )

    def __init__(
        self,
        rule: Rule,
        columns: list[list[CardIndex]],
        down: list[int],
        foundations: list[int],
        *,
        code: GameCode | None = None,
        score: int = 0,
        move_count: int = 0,
    ) -> None:
        """Build from engine data; prefer :meth:`new`, :meth:`from_layout`, or ``read_private``."""
        _validate(columns, down, foundations)
        if not (isinstance(score, int) and score >= 0):
            raise InvalidStateError(f"score {score!r} is not a whole number >= 0")
        if not (isinstance(move_count, int) and move_count >= 0):
            raise InvalidStateError(f"move count {move_count!r} is not a whole number >= 0")
        self._rule = rule
        self._code = code
        self._accepts = _accepts(rule)
        self._cols = columns
        self._down = down
        self._found = foundations
        self._loc = [ON_FOUNDATION] * DECK_SIZE
        for i, col in enumerate(columns):
            for position, card in enumerate(col):
                self._loc[card] = _FACE_DOWN if position < down[i] else i
        self._on_found = sum(foundations)
        self._score = score
        self._moves = move_count
        self._stack: list[Record] = []

    # -- construction --------------------------------------------------------

    @classmethod
    def new(cls, code: GameCode, key: bytes) -> Game:
        """The starting position of a deal (``key`` is the deployment's deal key)."""
        columns = layout(deal_indexes(code.number, key))
        return cls(code.rule, columns, list(FACE_DOWN_COUNTS), [0, 0, 0, 0], code=code)

    @classmethod
    def from_layout(
        cls,
        columns: Sequence[tuple[LayoutCards, LayoutCards]],
        foundations: Sequence[int] = (0, 0, 0, 0),
        *,
        rule: Rule = CLASSIC,
        code: GameCode | None = None,
        score: int = 0,
        move_count: int = 0,
    ) -> Game:
        """A hand-made position, for tests and examples.

        ``columns`` lists up to 7 ``(face_down, face_up)`` pairs, left to right,
        each bottom to top (missing columns are empty); ``foundations`` holds the
        card counts of the ♠ ♥ ♦ ♣ foundations. All 52 cards appear exactly once.

        >>> game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
        >>> str(game.play(Move.parse("KS>F")).move), game.won
        ('KS>F', True)
        """
        if len(columns) > COLUMN_COUNT:
            raise InvalidStateError(f"{len(columns)} columns given, at most {COLUMN_COUNT}")
        cols: list[list[CardIndex]] = []
        down: list[int] = []
        try:
            for face_down, face_up in columns:
                hidden = card_indexes(face_down)
                cols.append(hidden + card_indexes(face_up))
                down.append(len(hidden))
        except (YukonError, TypeError, ValueError) as error:
            raise InvalidStateError(f"bad layout: {error}") from None
        while len(cols) < COLUMN_COUNT:
            cols.append([])
            down.append(0)
        return cls(
            rule, cols, down, list(foundations), code=code, score=score, move_count=move_count
        )

    def copy(self) -> Game:
        """An independent copy, undo stack included."""
        # Through __init__ (its checks included): a compiled class cannot be made
        # without it, and copies are rare.
        game = Game(
            self._rule,
            [col[:] for col in self._cols],
            self._down[:],
            self._found[:],
            code=self._code,
            score=self._score,
            move_count=self._moves,
        )
        game._stack = self._stack[:]
        return game

    # -- reading the state ---------------------------------------------------

    @property
    def code(self) -> GameCode | None:
        """The game code, or None for a hand-made layout."""
        return self._code

    @property
    def rule(self) -> Rule:
        """The building rule in force."""
        return self._rule

    def column(self, index: int) -> ColumnView:
        """Column ``index`` (0..6, left to right) as a player sees it."""
        col = self._cols[index]
        down = self._down[index]
        return ColumnView(down, tuple(CARDS[c] for c in col[down:]))

    @property
    def columns(self) -> tuple[ColumnView, ...]:
        """The 7 columns, left to right."""
        return tuple(self.column(i) for i in range(COLUMN_COUNT))

    def foundation(self, suit: Suit | int) -> FoundationView:
        """The foundation of ``suit``: its count and top card."""
        count = self._found[suit]
        top = CARDS[suit * 13 + count - 1] if count else None
        return FoundationView(Suit(suit), count, top)

    @property
    def foundations(self) -> tuple[FoundationView, ...]:
        """The 4 foundations in ♠ ♥ ♦ ♣ order."""
        return tuple(self.foundation(s) for s in range(4))

    def layout(self) -> tuple[list[list[CardIndex]], list[int], list[int]]:
        """Copies of the position in engine indexes: each column bottom to top (face-down
        cards first), the face-down counts, the foundation counts (the solver starts here)."""
        return [list(col) for col in self._cols], list(self._down), list(self._found)

    @property
    def score(self) -> int:
        """Points so far, by the scoring rule in :mod:`.rules` (+10 per card up, +5 per turn)."""
        return self._score

    @property
    def move_count(self) -> int:
        """Moves made; an undo never lowers it."""
        return self._moves

    @property
    def cards_on_foundations(self) -> int:
        """How many cards the foundations hold."""
        return self._on_found

    @property
    def won(self) -> bool:
        """Whether all 52 cards are on the foundations."""
        return self._on_found == DECK_SIZE

    @property
    def undo_depth(self) -> int:
        """How many undos are available now (at most 100)."""
        return 0 if self._on_found == DECK_SIZE else min(UNDO_LIMIT, len(self._stack))

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, lazily (see the module docstring for their order)."""
        return LegalMoves(self)

    def hidden_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Server side only: each column's face-down cards, bottom to top."""
        return tuple(
            tuple(CARDS[c] for c in col[: self._down[i]]) for i, col in enumerate(self._cols)
        )

    def state_key(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """A hashable key of the position alone (cards, faces, foundations), for search."""
        return (tuple(map(tuple, self._cols)), tuple(self._down), tuple(self._found))

    def __eq__(self, other: object) -> bool:
        """Same code, rule, position, score, move count and undo history."""
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self._code == other._code
            and self._rule == other._rule
            and self._cols == other._cols
            and self._down == other._down
            and self._found == other._found
            and self._score == other._score
            and self._moves == other._moves
            and self._stack == other._stack
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        name = str(self._code) if self._code else f"layout, {self._rule.name}"
        return f"<Game {name} score={self._score} moves={self._moves}>"

    def __str__(self) -> str:
        """A text picture: one line per column (``##`` is a face-down card)."""
        lines = [
            " ".join(
                f"{Suit(s).symbol}{CARD_TEXT[s * 13 + n - 1] if n else '--'}"
                for s, n in enumerate(self._found)
            )
        ]
        for i, col in enumerate(self._cols):
            cards = ["##"] * self._down[i] + [CARD_TEXT[c] for c in col[self._down[i] :]]
            lines.append(f"{i + 1}: {' '.join(cards)}")
        return "\n".join(lines)

    # -- move generation and legality ----------------------------------------

    def _generate(self) -> list[Move]:
        """Every legal move, in the documented order."""
        if self._on_found == DECK_SIZE:
            return []
        cols = self._cols
        loc = self._loc
        found = self._found
        accepts = self._accepts
        moves = MOVES
        out: list[Move] = []
        for d in range(COLUMN_COUNT):
            col = cols[d]
            for c in accepts[col[-1]] if col else KINGS:
                where = loc[c]
                if where < ON_FOUNDATION:
                    if where != d:
                        src = cols[where]
                        if (
                            len(src) - self._down[where] <= GROUP_LIMIT
                            or len(src) - src.index(c) <= GROUP_LIMIT
                        ):
                            out.append(moves[c * 8 + d + 1])
                elif where == ON_FOUNDATION and found[c // 13] == c % 13 + 1:
                    out.append(moves[c * 8 + d + 1])
        for col in cols:
            if col:
                c = col[-1]
                if found[c // 13] == c % 13:
                    out.append(moves[c * 8])
        return out

    def _is_legal(self, c: CardIndex, to: int) -> bool:
        """Whether card ``c`` may go to ``to`` now (the fast twin of :meth:`check`)."""
        if self._on_found == DECK_SIZE:
            return False
        where = self._loc[c]
        if where == _FACE_DOWN:
            return False
        if where == ON_FOUNDATION:
            if to < 0 or self._found[c // 13] != c % 13 + 1:
                return False
        elif to < 0:
            return self._cols[where][-1] == c and self._found[c // 13] == c % 13
        elif to == where:
            return False
        else:
            src = self._cols[where]
            if len(src) - src.index(c) > GROUP_LIMIT:
                return False
        dest = self._cols[to]
        return c in self._accepts[dest[-1]] if dest else c % 13 == 12

    def check(self, move: Move) -> None:
        """Raise the :class:`IllegalMoveError` naming the rule that refuses ``move``."""
        c = move.card.index
        to = move.to
        self._check_pick(c, to_foundation=to == FOUNDATION)
        name = CARD_SYMBOLS[c]
        suit, rank0 = c // 13, c % 13
        where = self._loc[c]
        if where == ON_FOUNDATION:
            if to == FOUNDATION:
                raise refusals.ALREADY_ON_FOUNDATION.error(card=name, suit=Suit(suit).symbol)
            self._check_destination(c, to, group=1)
            return
        col = self._cols[where]
        position = col.index(c)
        if to == FOUNDATION:
            if position != len(col) - 1:
                raise refusals.COVERED.error(card=name, cover=CARD_SYMBOLS[col[position + 1]])
            count = self._found[suit]
            if count != rank0:
                # A card in a column keeps its foundation short of complete: count < 13.
                raise refusals.FOUNDATION_ORDER.error(
                    card=name, suit=Suit(suit).symbol, next=CARD_SYMBOLS[suit * 13 + count]
                )
            return
        if to == where:
            raise refusals.ALREADY_IN_COLUMN.error(card=name, column=str(to + 1))
        group = len(col) - position
        if group > GROUP_LIMIT:
            raise refusals.GROUP_TOO_LARGE.error(
                card=name, group=str(group), limit=str(GROUP_LIMIT)
            )
        self._check_destination(c, to, group=group)

    def _check_pick(self, c: CardIndex, *, to_foundation: bool) -> None:
        """Refuse a card that cannot move at all: game over, face down, or buried.

        A buried foundation card sent to a column is a take-back of a card that
        is not the top (``not-top-card``); sent to the foundation it is simply
        not in play (``card-not-in-play``).
        """
        if self._on_found == DECK_SIZE:
            raise refusals.GAME_WON_MOVE.error()
        where = self._loc[c]
        name = CARD_SYMBOLS[c]
        if where == _FACE_DOWN:
            raise refusals.FACE_DOWN.error(card=name)
        suit = c // 13
        if where == ON_FOUNDATION and self._found[suit] != c % 13 + 1:
            top = CARD_SYMBOLS[suit * 13 + self._found[suit] - 1]
            refusal = refusals.OUT_OF_PLAY if to_foundation else refusals.UNDER_FOUNDATION_TOP
            raise refusal.error(card=name, top=top, suit=Suit(suit).symbol)

    def _check_destination(self, c: CardIndex, to: int, *, group: int) -> None:
        """Refuse a column that does not accept card ``c`` leading ``group`` cards."""
        name = CARD_SYMBOLS[c]
        dest = self._cols[to]
        if not dest:
            if c % 13 != 12:
                if group > 1:
                    raise refusals.GROUP_WITHOUT_KING.error(card=name, group=str(group))
                raise refusals.NOT_A_KING.error(card=name)
            return
        card, target = CARDS[c], CARDS[dest[-1]]
        rule = self._rule
        where = {"card": name, "target": target.symbol, "column": str(to + 1)}
        if not rule.ranks_fit(card, target):
            ranks = [
                RANK_NAMES[target.rank - step]
                for step in rule.rank_steps
                if 1 <= target.rank - step <= 13
            ]
            if not ranks:
                raise refusals.NOTHING_ON_AN_ACE.error(**where)
            raise refusals.rank_refusal(rule).error(**where, ranks="/".join(ranks))
        if not rule.suits_fit(card, target):
            raise refusals.SUIT_REFUSALS[rule].error(**where)

    # -- the checked player path ---------------------------------------------

    def play(self, move: Move) -> MoveResult:
        """Make a move after checking it; raises :class:`IllegalMoveError`."""
        self.check(move)
        before = self._score
        self._play(move.card.index, move.to)
        c, to, src, n, turned = unpack(self._stack[-1])
        kind: MoveKind
        cards: tuple[Card, ...]
        if src == ON_FOUNDATION:
            kind, from_column, cards = "take-back", FOUNDATION, (CARDS[c],)
        else:
            from_column = src
            if to == FOUNDATION:
                kind, cards = "foundation", (CARDS[c],)
            else:
                kind, cards = "move", tuple(CARDS[x] for x in self._cols[to][-n:])
        turned_up = CARDS[self._cols[src][-1]] if turned else None
        return MoveResult(
            move=move,
            kind=kind,
            cards=cards,
            from_column=from_column,
            turned_up=turned_up,
            score_delta=self._score - before,
            score=self._score,
            move_count=self._moves,
            won=self._on_found == DECK_SIZE,
        )

    def _play(self, c: CardIndex, to: int) -> None:
        """Push a move and forget what falls out of the undo window."""
        self._push(c * 8 + to + 1)
        if len(self._stack) > UNDO_LIMIT:
            del self._stack[0]

    def undo(self) -> UndoResult:
        """Take back the latest move: cards, faces and score; the move counter stays."""
        if self._on_found == DECK_SIZE:
            raise refusals.GAME_WON_UNDO.error()
        if not self._stack:
            raise refusals.NOTHING_TO_UNDO.error(limit=str(UNDO_LIMIT))
        before = self._score
        c, to, src, n, turned = unpack(self._pop())
        cards: tuple[Card, ...]
        self._moves += 1
        if src == ON_FOUNDATION:
            cards = (CARDS[c],)
            returned_to = FOUNDATION
        else:
            col = self._cols[src]
            cards = tuple(CARDS[x] for x in col[len(col) - n :])
            returned_to = src
        return UndoResult(
            move=MOVES[c * 8 + to + 1],
            cards=cards,
            returned_to=returned_to,
            turned_down=bool(turned),
            score_delta=self._score - before,
            score=self._score,
            move_count=self._moves,
            undo_depth=self.undo_depth,
        )

    # -- the unchecked search path -------------------------------------------

    def push(self, move: Move) -> None:
        """Make a legal move without checks (search); :meth:`pop` undoes it exactly.

        The stack is shared with :meth:`undo` but never capped here.
        """
        self._push(move.index)

    def pop(self) -> Move:
        """Undo the latest move exactly, move counter included; returns it."""
        return MOVES[self._pop() & 511]

    def _push(self, index: int) -> None:
        """Push the move of ``Move.index`` ``index`` (card * 8 + to + 1)."""
        c = index >> 3
        to = (index & 7) - 1
        loc = self._loc
        src = loc[c]
        cols = self._cols
        if src == ON_FOUNDATION:
            found = self._found
            suit = c // 13
            found[suit] = found[suit] - 1
            self._on_found -= 1
            cols[to].append(c)
            loc[c] = to
            self._stack.append(index | ON_FOUNDATION << 9 | 1 << 12)
            self._moves += 1
            return
        col = cols[src]
        if to < 0:
            col.pop()
            found = self._found
            suit = c // 13
            found[suit] = found[suit] + 1
            self._on_found += 1
            loc[c] = ON_FOUNDATION
            n = 1
            points = FOUNDATION_POINTS
        elif col[-1] == c:
            col.pop()
            cols[to].append(c)
            loc[c] = to
            n = 1
            points = 0
        else:
            # Card by card rather than by slices (and pops rather than a slice
            # deletion): compiled, a loop over a few ints costs less than making
            # slice objects and lists.
            i = len(col) - 2
            while col[i] != c:  # groups are short: look from the top
                i -= 1
            dest = cols[to]
            n = len(col) - i
            for k in range(i, i + n):
                g = col[k]
                dest.append(g)
                loc[g] = to
            for _ in range(n):
                col.pop()
            points = 0
        down = self._down
        hidden = down[src]
        entry = index | src << 9 | n << 12  # record(c, to, src, n, 0)
        if hidden and len(col) == hidden:
            down[src] = hidden - 1
            loc[col[-1]] = src
            entry |= 1 << 18
            points += TURN_UP_POINTS
        self._stack.append(entry)
        self._score += points
        self._moves += 1

    def _pop(self) -> Record:
        entry = self._stack.pop()
        c = (entry & 511) >> 3
        to = (entry & 7) - 1
        src = entry >> 9 & 7
        cols = self._cols
        loc = self._loc
        self._moves -= 1
        if src == ON_FOUNDATION:
            cols[to].pop()
            found = self._found
            suit = c // 13
            found[suit] = found[suit] + 1
            self._on_found += 1
            loc[c] = ON_FOUNDATION
            return entry
        col = cols[src]
        if entry >> 18:
            loc[col[-1]] = _FACE_DOWN
            hidden = self._down
            hidden[src] = hidden[src] + 1
            self._score -= TURN_UP_POINTS
        n = entry >> 12 & 63
        if to < 0:
            found = self._found
            suit = c // 13
            found[suit] = found[suit] - 1
            self._on_found -= 1
            col.append(c)
            loc[c] = src
            self._score -= FOUNDATION_POINTS
        elif n == 1:
            cols[to].pop()
            col.append(c)
            loc[c] = src
        else:
            dest = cols[to]
            start = len(dest) - n
            for k in range(start, start + n):
                g = dest[k]
                col.append(g)
                loc[g] = src
            for _ in range(n):
                dest.pop()
        return entry

    # -- assists -------------------------------------------------------------

    def tap_move(self, card: Card) -> Move:
        """The tap assist: the card's foundation move, or the error saying why not."""
        move = MOVES[card.index * 8]
        self.check(move)
        return move

    def double_click_move(self, card: Card) -> Move:
        """The double-click assist: a column for the card and everything on it.

        The longest accepting column (all its cards counted), leftmost on ties;
        an empty column (leftmost) only if no other column accepts.
        """
        c = card.index
        self._check_pick(c, to_foundation=False)
        best, best_size, empty = -1, 0, -1
        for d in range(COLUMN_COUNT):
            if self._is_legal(c, d):
                size = len(self._cols[d])
                if size > best_size:
                    best, best_size = d, size
                elif size == 0 and empty < 0:
                    empty = d
        if best >= 0:
            return MOVES[c * 8 + best + 1]
        if empty >= 0:
            return MOVES[c * 8 + empty + 1]
        where = self._loc[c]
        if where < ON_FOUNDATION:
            col = self._cols[where]
            group = len(col) - col.index(c)
            if group > GROUP_LIMIT:
                raise refusals.GROUP_TOO_LARGE.error(
                    card=CARD_SYMBOLS[c], group=str(group), limit=str(GROUP_LIMIT)
                )
        raise refusals.NO_DESTINATION.error(card=CARD_SYMBOLS[c])

    def destinations(self, card: Card) -> list[int]:
        """Placement help: where the picked card may go (columns, then FOUNDATION)."""
        c = card.index
        found = [to for to in range(COLUMN_COUNT) if self._is_legal(c, to)]
        if self._is_legal(c, FOUNDATION):
            found.append(FOUNDATION)
        return found


def _validate(columns: list[list[CardIndex]], down: list[int], foundations: list[int]) -> None:
    """Refuse anything but 7 columns and 4 foundations holding each card once."""
    if len(columns) != COLUMN_COUNT or len(down) != COLUMN_COUNT:
        raise InvalidStateError(f"a game has {COLUMN_COUNT} columns, not {len(columns)}")
    if len(foundations) != 4 or not all(isinstance(n, int) and 0 <= n <= 13 for n in foundations):
        raise InvalidStateError(f"foundations {foundations!r} are not 4 counts in 0..13")
    seen = [s * 13 + r for s, n in enumerate(foundations) for r in range(n)]
    for i, col in enumerate(columns):
        if not 0 <= down[i] <= max(len(col) - 1, 0):
            raise InvalidStateError(
                f"column {i + 1} has {down[i]} face-down cards out of {len(col)}: "
                "the last card of a column is always face up"
            )
        seen += col
    if sorted(seen) != list(range(DECK_SIZE)):
        missing = sorted(set(range(DECK_SIZE)) - set(seen))
        doubled = sorted({c for c in seen if seen.count(c) > 1})
        raise InvalidStateError(
            "the 52 cards must appear exactly once "
            f"(missing: {' '.join(CARD_TEXT[c] for c in missing) or 'none'}; "
            f"twice: {' '.join(CARD_TEXT[c] for c in doubled) or 'none'})"
        )
