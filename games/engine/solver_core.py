"""The search behind :func:`games.engine.solver.solve`, on a compact integer state.

Cards are engine indexes (``suit * 13 + rank - 1``). The columns live in one
flat list of ints (:data:`_STRIDE` slots per column, with explicit lengths), and
each card's column and index in it are kept in two more lists, so a move
copies a few ints and never builds a column.

The state key is one exact integer, :attr:`Search.code`: byte ``c`` (bits
``8c .. 8c+7``) describes card ``c``: the card it lies on (or :data:`BOTTOM`, or
:data:`HOME` on its foundation), plus :data:`HIDDEN` while it is face down and
:data:`WAITING` while it waits after a take-back. A move changes the bytes of
the few cards it touches, so a child's key is the parent's plus one or two
precomputed deltas. Which card lies on which determines the columns up to
their order, so column order never splits a position.

The search is a depth-first search over *macro moves* (a move followed by the
safe foundation moves it enables) with a transposition table of those keys,
and take-backs played only right before their use. ``docs/solver.md``
explains why each reduction keeps the answer exact.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from .cards import KINGS
from .native import search_core
from .rules import GROUP_LIMIT

#: ``loc`` value and move destination for the foundations.
FOUND: Final = 7
#: A card's byte in the key: it lies at the bottom of a column.
BOTTOM: Final = 52
#: A card's byte in the key: it is on its foundation.
HOME: Final = 53
#: Added to a card's byte in the key while it is face down.
HIDDEN: Final = 64
#: Added to a card's byte in the key while it waits after a take-back.
WAITING: Final = 128
#: Nodes of the main search between two probes.
MAIN_SLICE: Final = 2048
#: Nodes of the shortest probe (see :func:`probe_budget`).
PROBE_NODES: Final = 1024
#: Random points added to a probe's move scores (the scores step by 5..40).
PROBE_NOISE: Final = 120
#: Nodes between two looks at the clock.
CHECK_EVERY: Final = 64
#: Slots per column in :attr:`Search.tab` (a column never holds more than 52 cards).
_STRIDE: Final = 64
#: Bytes of one position in the C search's table (``Entry`` in ``_search.c``).
ENTRY_BYTES: Final = 72
#: The memory bound of the C search's table when the caller gives none (MiB).
DEFAULT_TABLE_MB: Final = 2048
#: The C search (``_search.c``, built by ``make install``), or ``None``: then :class:`Search`.
_C_SEARCH: Final[Any] = search_core()

#: A primitive move: (card, destination column 0..6 or FOUND).
type Step = tuple[int, int]
#: A tableau move found by move generation: (score, card, from column, index there, to column).
type _Tableau = tuple[int, int, int, int, int]
#: A column top that stands for an empty column in :meth:`Search.block_can_end`.
_EMPTY: Final = 255
#: One-byte ``bytes`` for every byte value.
_BYTE: Final = tuple(bytes((b,)) for b in range(256))
#: ``_DELTA[card * 256 + new - old + 128]``: what the key gains when the byte of
#: ``card`` goes from ``old`` to ``new``.
_DELTA: Final = [(d - 128) << (8 * c) for c in range(52) for d in range(256)]
#: What the key gains when a face-down card is turned up.
_TURN_UP: Final = [-HIDDEN << (8 * c) for c in range(52)]
#: What the key gains when a card stops waiting.
_USED: Final = [-WAITING << (8 * c) for c in range(52)]

# A candidate move is one negative int, best first when sorted: minus its
# score (bits 17 and up), card (11-16), destination (8-10, FOUND for a
# foundation move) and its index in the list of child keys (0-7; the key is 0
# for a move played the long way). A step of the undo log is one int too (see :meth:`Search.apply`).
_CARD_SHIFT: Final = 11
_DEST_SHIFT: Final = 8
_SCORE_SHIFT: Final = 17


@dataclass(frozen=True)
class Tables:
    """Per-rule lookups: which cards build on which, and when autoplay is safe."""

    #: For each card, the cards it may be placed on (one rank higher, suit rule).
    parents: tuple[tuple[int, ...], ...]
    #: For each card, the cards that may be placed on it.
    children: tuple[tuple[int, ...], ...]
    #: For each card, the minimum foundation counts (per suit) that make moving
    #: it to its foundation safe, or ``None`` when it never is.
    safe_need: tuple[tuple[int, int, int, int] | None, ...]
    #: ``fits[card * 52 + target]`` is 1 when ``card`` may be placed on ``target``.
    fits: bytes


def build_tables(builds_on: Callable[[int, int], bool]) -> Tables:
    """Tables for a rule given ``builds_on(card, target)`` on card indexes."""
    children = tuple(tuple(c for c in range(52) if builds_on(c, t)) for t in range(52))
    parents = tuple(tuple(t for t in range(52) if builds_on(c, t)) for c in range(52))
    safe_need: list[tuple[int, int, int, int] | None] = []
    for card in range(52):
        # Close {card} under "may be placed on" and under "lower card of the same
        # suit" (foundation order); autoplay is safe once all of it but the card
        # itself is on the foundations (docs/solver.md, "Safe foundation moves").
        top = [0, 0, 0, 0]
        top[card // 13] = card % 13 + 1
        changed = True
        while changed:
            changed = False
            for s in range(4):
                for r in range(top[s]):
                    for ch in children[s * 13 + r]:
                        cs, cr = ch // 13, ch % 13 + 1
                        if cr > top[cs]:
                            top[cs] = cr
                            changed = True
        suit = card // 13
        if top[suit] > card % 13 + 1:
            safe_need.append(None)
        else:
            top[suit] = card % 13
            safe_need.append((top[0], top[1], top[2], top[3]))
    fits = bytes(1 if t in parents[c] else 0 for c in range(52) for t in range(52))
    return Tables(parents, children, tuple(safe_need), fits)


class BudgetExceeded(Exception):
    """Raised inside the search when the node or time budget runs out."""

    def __init__(self, reason: str, nodes: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.nodes = nodes


class Search:
    """One exhaustive-unless-budgeted search from a root position."""

    def __init__(
        self,
        tables: Tables,
        columns: Sequence[Sequence[int]],
        down: Sequence[int],
        foundations: Sequence[int],
        *,
        noise: int = 0,
        seed: int = 0,
        free_take_backs: bool = False,
        lost: set[int] | None = None,
    ) -> None:
        self.parents = tables.parents
        self.children = tables.children
        self.safe_need = tables.safe_need
        self.fits = tables.fits
        #: The columns, bottom to top: column ``j`` is ``tab[j * _STRIDE:][:lens[j]]``.
        self.tab: list[int] = [0] * (7 * _STRIDE)
        self.lens: list[int] = [0] * 7
        self.down: list[int] = list(down)
        self.found: list[int] = list(foundations)
        self.on_found = sum(self.found)
        self.loc: list[int] = [FOUND] * 52
        #: Each card's index in its column (kept for cards in columns only): a
        #: face-down card is one below the column's face-down count.
        self.pos: list[int] = [0] * 52
        code = sum(HOME << (8 * c) for c in range(52))
        for j, col in enumerate(columns):
            for p, c in enumerate(col):
                self.tab[j * _STRIDE + p] = c
                self.loc[c] = j
                self.pos[c] = p
                byte = (col[p - 1] if p else BOTTOM) | (HIDDEN if p < down[j] else 0)
                code += (byte - HOME) << (8 * c)
            self.lens[j] = len(col)
        #: The state key (see the module docstring), kept up to date by every move.
        self.code: int = code
        self.root_cols: list[list[int]] = [list(col) for col in columns]
        self.root_down: tuple[int, ...] = tuple(down)
        self.noise = noise
        #: Play take-backs as ordinary moves instead of in the normal form.
        self.free_take_backs = free_take_backs
        self.random = random.Random(seed).random
        self.nodes = 0
        self.started = False
        self.finished = False
        #: The outcome once finished: a winning line, or None (no win exists).
        self.line: list[Step] | None = None
        self.prefix: list[Step] = []
        # The depth-first stack: at each depth the candidate moves, their child
        # keys and the next index (lists kept for reuse below the current
        # depth); the key and the waiting cards before each step, and where its
        # records start in the undo log.
        self.depth = -1
        self.frames: list[list[int]] = []
        self.frame_keys: list[list[int]] = []
        self.positions: list[int] = []
        #: The lowest Tarjan index each frame's subtree reaches.
        self.lows: list[int] = []
        self.codes: list[int] = []
        self.pendings: list[bytes] = []
        self.marks: list[int] = []
        self.log: list[int] = []
        #: Cards taken back from the foundations and not yet used (sorted; see
        #: :meth:`pending_moves`). Part of the state key.
        self.pending = b""
        #: Positions entered: key -> Tarjan index while the strongly connected
        #: component is open, -1 once it closed (see :meth:`run`).
        self.seen: dict[int, int] = {}
        #: Positions proven lost: their component was closed without a win. Shared
        #: by the main search and the probes of one :func:`search`.
        self.lost: set[int] = set() if lost is None else lost
        #: Tarjan's stack: the keys of :attr:`seen`, in the order entered.
        self.scc: list[int] = []
        #: The lowest Tarjan index the position being expanded reaches (see :meth:`moves`).
        self.low = 0
        self.dead_memo: dict[int, bool] = {}
        self.block_memo: dict[tuple[int, int, bytes], bool] = {}
        #: Take-backs found by :meth:`moves` (a list kept for reuse).
        self.backs: list[int] = []

    # -- reading the state -----------------------------------------------------

    def column(self, j: int) -> list[int]:
        """Column ``j``, bottom to top."""
        base = j * _STRIDE
        return self.tab[base : base + self.lens[j]]

    def top(self, j: int) -> int:
        """The last card of column ``j``, or :data:`BOTTOM` when it is empty."""
        n = self.lens[j]
        return self.tab[j * _STRIDE + n - 1] if n else BOTTOM

    def key(self) -> int:
        """The position up to column order (foundations follow from the tableau)."""
        return self.code

    # -- state changes -------------------------------------------------------

    def code_after(self, card: int, dest: int) -> int:
        """The key after moving ``card`` (with what lies on it) to ``dest``, waiting cards aside."""
        src = self.loc[card]
        if src == FOUND:
            return self.code + _DELTA[card * 256 + self.top(dest) - HOME + 128]
        i = self.pos[card]
        below = self.tab[src * _STRIDE + i - 1] if i else BOTTOM
        onto = HOME if dest == FOUND else self.top(dest)
        code = self.code + _DELTA[card * 256 + onto - below + 128]
        if i and self.down[src] == i:
            code += _TURN_UP[below]
        return code

    def apply(self, card: int, dest: int) -> int:
        """Make a legal move, key included; return the record :meth:`undo` needs.

        The record is one int: card, destination, source column (``FOUND`` for a
        take-back), cards moved, and 1 when a card was turned up.
        """
        self.code = self.code_after(card, dest)
        return self.shift(card, dest)

    def shift(self, card: int, dest: int) -> int:
        """:meth:`apply` without the key: the caller sets :attr:`code`."""
        loc = self.loc
        pos = self.pos
        tab = self.tab
        lens = self.lens
        src = loc[card]
        if src == FOUND:
            n = lens[dest]
            tab[dest * _STRIDE + n] = card
            lens[dest] = n + 1
            loc[card] = dest
            pos[card] = n
            found = self.found
            suit = card // 13
            found[suit] = found[suit] - 1
            self.on_found -= 1
            return card | dest << 6 | FOUND << 9 | 1 << 12
        i = pos[card]
        if dest == FOUND:
            loc[card] = FOUND
            found = self.found
            suit = card // 13
            found[suit] = found[suit] + 1
            self.on_found += 1
            moved = 1
        else:
            base = src * _STRIDE
            end = base + lens[src]
            d = lens[dest]
            at = dest * _STRIDE + d
            moved = end - base - i
            for x in range(base + i, end):
                g = tab[x]
                tab[at] = g
                loc[g] = dest
                pos[g] = d
                at += 1
                d += 1
            lens[dest] = d
        lens[src] = i
        down = self.down
        if i and down[src] == i:
            down[src] = i - 1
            return card | dest << 6 | src << 9 | moved << 12 | 1 << 18
        return card | dest << 6 | src << 9 | moved << 12

    def undo(self, record: int) -> None:
        """Exactly reverse :meth:`shift` (the caller restores :attr:`code`)."""
        card = record & 63
        dest = (record >> 6) & 7
        src = (record >> 9) & 7
        loc = self.loc
        lens = self.lens
        if src == FOUND:
            lens[dest] = lens[dest] - 1
            loc[card] = FOUND
            found = self.found
            suit = card // 13
            found[suit] = found[suit] + 1
            self.on_found += 1
            return
        if record >> 18:
            down = self.down
            down[src] = down[src] + 1
        tab = self.tab
        pos = self.pos
        i = lens[src]
        at = src * _STRIDE + i
        if dest == FOUND:
            tab[at] = card
            loc[card] = src
            pos[card] = i
            lens[src] = i + 1
            found = self.found
            suit = card // 13
            found[suit] = found[suit] - 1
            self.on_found -= 1
            return
        moved = (record >> 12) & 63
        d = lens[dest] - moved
        lens[dest] = d
        lens[src] = i + moved
        for x in range(dest * _STRIDE + d, dest * _STRIDE + d + moved):
            g = tab[x]
            tab[at] = g
            loc[g] = src
            pos[g] = i
            at += 1
            i += 1

    def set_pending(self, waiting: bytes) -> None:
        """Make ``waiting`` the cards waiting after take-backs, key included."""
        self.code = self.code_waiting(self.code, waiting)
        self.pending = waiting

    def code_waiting(self, code: int, waiting: bytes) -> int:
        """``code`` with :data:`WAITING` moved from the cards of :attr:`pending` to ``waiting``."""
        for c in self.pending:
            if c not in waiting:
                code += _USED[c]
        for c in waiting:
            if c not in self.pending:
                code -= _USED[c]
        return code

    def safe(self, card: int) -> bool:
        """Whether ``card``, next on its foundation, can go home safely (docs/solver.md)."""
        need = self.safe_need[card]
        found = self.found
        return (
            need is not None
            and found[0] >= need[0]
            and found[1] >= need[1]
            and found[2] >= need[2]
            and found[3] >= need[3]
        )

    def autoplay(self, src: int = -1) -> None:
        """Play every safe foundation move (docs/solver.md), appending to the undo log.

        ``src``: the column a tableau move or foundation move just left, from a
        position where no safe move was left: if its new last card cannot go
        home safely, no other card can either, unless a foundation just grew.
        """
        tab = self.tab
        lens = self.lens
        found = self.found
        log = self.log
        if src >= 0 and (log[-1] >> 6) & 7 != FOUND:
            n = lens[src]
            if not n:
                return
            t = tab[src * _STRIDE + n - 1]
            if found[t // 13] != t % 13 or not self.safe(t):
                return
        progress = True
        while progress:
            progress = False
            for j in range(7):
                n = lens[j]
                if not n:
                    continue
                t = tab[j * _STRIDE + n - 1]
                if found[t // 13] == t % 13 and self.safe(t):
                    log.append(self.apply(t, FOUND))
                    progress = True
                    break

    # -- dead positions ------------------------------------------------------

    def down_key(self) -> int:
        """The face-down counts as one int (six bits each: a column holds at most 51)."""
        down = self.down
        return (
            down[0]
            | down[1] << 6
            | down[2] << 12
            | down[3] << 18
            | down[4] << 24
            | down[5] << 30
            | down[6] << 36
        )

    def dead(self) -> bool:
        """Whether some face-down card can provably never be turned up (memoised)."""
        memo_key = self.down_key()
        verdict = self.dead_memo.get(memo_key)
        if verdict is None:
            verdict = self._dead(self.down)
            self.dead_memo[memo_key] = verdict
        return verdict

    def _dead(self, down: Sequence[int]) -> bool:
        # Face-down cards only ever leave hidden prefixes of the root columns,
        # so the hidden set is a function of the face-down counts.
        where: dict[int, tuple[int, int]] = {}
        for j, d in enumerate(down):
            col = self.root_cols[j]
            for k in range(d):
                where[col[k]] = (j, k)
        if not where:
            return False
        # requirements[h]: None if h can never be turned up, else the list of
        # alternative sets of other face-down cards that must be turned up first.
        requirements: dict[int, tuple[int | None, list[frozenset[int]]]] = {}
        for h, (j, k) in where.items():
            col = self.root_cols[j]
            above = col[k + 1]  # leaves before h turns up (with its group)
            below_first = col[k + 1] if k + 1 < down[j] else None
            options: list[frozenset[int]] = []
            if above % 13 == 12:
                options.append(frozenset())
            else:
                for p in self.parents[above]:
                    pos = where.get(p)
                    if pos is None:
                        options.append(frozenset())
                        break
                    if pos[0] == j and pos[1] <= k:
                        continue
                    options.append(frozenset((p,)))
                else:
                    need: set[int] = set()
                    possible = True
                    suit = above // 13
                    for q in range(suit * 13, above):
                        pos = where.get(q)
                        if pos is None:
                            continue
                        if pos[0] == j and pos[1] <= k:
                            possible = False
                            break
                        need.add(q)
                    if possible:
                        options.append(frozenset(need))
            requirements[h] = (below_first, options)
        freed: set[int] = set()
        changed = True
        while changed:
            changed = False
            for h, (first, options) in requirements.items():
                if h in freed or (first is not None and first not in freed):
                    continue
                if any(option <= freed for option in options):
                    freed.add(h)
                    changed = True
        return len(freed) < len(where)

    # -- move generation -----------------------------------------------------

    def moves(self, out: list[int], keys: list[int]) -> None:
        """Fill ``out`` with the candidate moves, best first; pointless ones are left out.

        ``keys`` receives the child key of each prepared move (see :meth:`prepare`),
        at the index the candidate's low bits hold. docs/solver.md says which
        moves are left out, and why.
        """
        if self.pending:
            onto_waiting, more_backs = self.pending_moves(self.pending)
            for score, card, j, i, k in onto_waiting:
                self.prepare(out, keys, score, card, j, i, k)
            self.prepare_backs(more_backs, out, keys)
            return
        tab = self.tab
        lens = self.lens
        loc = self.loc
        pos = self.pos
        found = self.found
        down = self.down
        fits = self.fits
        children = self.children
        noise = self.noise
        rand = self.random
        seen = self.seen
        lost = self.lost
        code = self.code
        delta = _DELTA
        turn_up = _TURN_UP
        n_keys = 0
        backs = self.backs
        backs.clear()
        empty = -1
        for k in range(7):
            n = lens[k]
            if not n:
                if empty < 0:
                    empty = k
                continue
            t = tab[k * _STRIDE + n - 1]
            if found[t // 13] == t % 13:
                if n == 1:
                    score = 60
                elif down[k] == n - 1:
                    score = 90 + down[k]
                else:
                    score = 40
                if noise:
                    score += int(rand() * noise)
                out.append(
                    -(score << _SCORE_SHIFT | t << _CARD_SHIFT | FOUND << _DEST_SHIFT | n_keys)
                )
                keys.append(0)
                n_keys += 1
            for ch in children[t]:
                j = loc[ch]
                if j == k:
                    continue
                if j == FOUND:
                    if found[ch // 13] == ch % 13 + 1 and not self.back_is_pointless(ch):
                        score = int(rand() * noise) if noise else 0
                        backs.append(score << _SCORE_SHIFT | ch << _CARD_SHIFT | k << _DEST_SHIFT)
                    continue
                i = pos[ch]
                if i < down[j] or lens[j] - i > GROUP_LIMIT:
                    continue  # face down, or too large a group
                # What prepare() does, written out: this loop makes most candidates.
                if i:
                    u = tab[j * _STRIDE + i - 1]
                    if down[j] == i:
                        score = 100 + i
                        child = code + delta[ch * 256 + t - u + 128] + turn_up[u]
                    else:
                        score = 5 if fits[ch * 52 + u] else 30
                        child = code + delta[ch * 256 + t - u + 128]
                    if noise:
                        score += int(rand() * noise)
                    if found[u // 13] == u % 13 and self.safe(u):
                        # The uncovered card goes home: the long way.
                        out.append(
                            -(score << _SCORE_SHIFT | ch << _CARD_SHIFT | k << _DEST_SHIFT | n_keys)
                        )
                        keys.append(0)
                        n_keys += 1
                        continue
                else:
                    score = 70 + (int(rand() * noise) if noise else 0)
                    child = code + delta[ch * 256 + t - BOTTOM + 128]
                index = seen.get(child)
                if index is not None:
                    if 0 <= index < self.low:
                        self.low = index
                elif child not in lost:
                    out.append(
                        -(score << _SCORE_SHIFT | ch << _CARD_SHIFT | k << _DEST_SHIFT | n_keys)
                    )
                    keys.append(child)
                    n_keys += 1
        if empty >= 0:
            for king in KINGS:
                j = loc[king]
                if j == FOUND:
                    if found[king // 13] == 13 and not self.back_is_pointless(king):
                        score = 1 + (int(rand() * noise) if noise else 0)
                        backs.append(
                            score << _SCORE_SHIFT | king << _CARD_SHIFT | empty << _DEST_SHIFT
                        )
                    continue
                i = pos[king]
                if i == 0 or i < down[j] or lens[j] - i > GROUP_LIMIT:
                    continue  # a whole column, face down, or too large a group
                score = (100 + down[j] if down[j] == i else 20) + (
                    int(rand() * noise) if noise else 0
                )
                self.prepare(out, keys, score, king, j, i, empty)
        if backs:
            self.prepare_backs(backs, out, keys)
        if len(out) > 1:
            out.sort()

    def prepare(
        self, out: list[int], keys: list[int], score: int, card: int, j: int, i: int, k: int
    ) -> None:
        """Append the candidate for the tableau move of ``card`` (``j``, index ``i``) to ``k``.

        A move after which nothing goes home safely is *prepared*: the child's
        key is computed here, a child already in the table is dropped without
        being played, and :meth:`run` plays the others without computing their
        key again. The rest get the key 0 and are played the long way
        (:meth:`apply`, then autoplay). A move onto the one waiting card uses it.
        """
        if i:
            # The uncovered card is the only one that can have become safe
            # (no other column top was safe before the move).
            u = self.tab[j * _STRIDE + i - 1]
            if self.found[u // 13] == u % 13 and self.safe(u):
                out.append(
                    -(score << _SCORE_SHIFT | card << _CARD_SHIFT | k << _DEST_SHIFT | len(keys))
                )
                keys.append(0)
                return
        code = self.code_after(card, k)
        if self.pending:
            code = self.code_waiting(code, b"")
        if self.fresh(code):
            out.append(
                -(score << _SCORE_SHIFT | card << _CARD_SHIFT | k << _DEST_SHIFT | len(keys))
            )
            keys.append(code)

    def prepare_backs(self, backs: list[int], out: list[int], keys: list[int]) -> None:
        """Append the candidates for the take-backs ``backs`` to ``out``.

        In the main search a take-back is prepared as a tableau move is (see
        :meth:`prepare`); the probes play it the long way.
        """
        if self.free_take_backs:
            for back in backs:
                out.append(-(back | len(keys)))
                keys.append(0)
            return
        for back in backs:
            card = (back >> _CARD_SHIFT) & 63
            k = (back >> _DEST_SHIFT) & 7
            waiting = self.took_back(card, self.top(k))
            code = self.code_waiting(self.code_after(card, k), waiting)
            if self.fresh(code) and self.block_can_end(card, k, waiting):
                out.append(-(back | len(keys)))
                keys.append(code)

    def fresh(self, code: int) -> bool:
        """Whether ``code``'s position is neither open nor lost (an open one lowers :attr:`low`)."""
        index = self.seen.get(code)
        if index is not None:
            if 0 <= index < self.low:
                self.low = index
            return False
        return code not in self.lost

    def pending_moves(self, pending: bytes) -> tuple[list[_Tableau], list[int]]:
        """After take-backs: moves onto the one card still waiting, and more take-backs.

        Some shortest winning line takes a card back only right before it is
        used, with nothing but take-backs in between (docs/solver.md,
        "Take-backs"), so nothing else is tried while cards are waiting. The
        take-backs are candidate ints of score 0 (see :meth:`moves`).
        """
        tab = self.tab
        lens = self.lens
        loc = self.loc
        found = self.found
        children = self.children
        tableau: list[_Tableau] = []
        backs: list[int] = []
        if len(pending) == 1:
            card = pending[0]
            k = loc[card]
            for ch in children[card]:
                j = loc[ch]
                if j in (FOUND, k):
                    continue
                i = self.pos[ch]
                if i >= self.down[j] and lens[j] - i <= GROUP_LIMIT:
                    tableau.append((0, ch, j, i, k))
        empty = -1
        for j in range(7):
            n = lens[j]
            if not n:
                if empty < 0:
                    empty = j
                continue
            for ch in children[tab[j * _STRIDE + n - 1]]:
                if (
                    loc[ch] == FOUND
                    and found[ch // 13] == ch % 13 + 1
                    and not self.back_is_pointless(ch)
                ):
                    backs.append(ch << _CARD_SHIFT | j << _DEST_SHIFT)
        if empty >= 0:
            for king in KINGS:
                if (
                    loc[king] == FOUND
                    and found[king // 13] == 13
                    and not self.back_is_pointless(king)
                ):
                    backs.append(king << _CARD_SHIFT | empty << _DEST_SHIFT)
        return tableau, backs

    def back_is_pointless(self, card: int) -> bool:
        """Whether taking ``card`` (a foundation's top) back can be left out.

        It can when the card would be safe to send home again at once: then
        no shortest winning line takes it back (docs/solver.md, "Safe cards
        stay home"). The card's own suit is at its rank, which its need
        allows, so the current foundations decide.
        """
        return self.safe(card)

    def took_back(self, card: int, target: int) -> bytes:
        """The waiting cards after taking ``card`` back onto ``target`` (or BOTTOM)."""
        return _took_back(self.pending, card, target)

    def block_can_end(self, card: int, k: int, waiting: bytes) -> bool:
        """Whether the take-back of ``card`` onto column ``k`` can lead out of waiting.

        While cards wait, the main search plays only take-backs until a single
        card waits and a tableau move goes onto it (docs/solver.md, "Waiting
        sets that cannot end"). Take-backs see only the foundations and the
        column tops, so this searches that small state (memoised): whether
        some chain of take-backs reaches one waiting card with a face-up card
        off the foundations that may be placed on it.
        """
        found = self.found[:]
        suit = card // 13
        found[suit] = found[suit] - 1
        if len(waiting) == 1 and self._can_exit(found, waiting[0]):
            return True
        tops = [
            self.tab[j * _STRIDE + self.lens[j] - 1] if self.lens[j] else _EMPTY for j in range(7)
        ]
        tops[k] = card
        return self._block_can_end(found, tops, waiting)

    def _can_exit(self, found: list[int], card: int) -> bool:
        """Whether a card off ``found`` and not face down may be placed on ``card``.

        Face-down cards do not change during take-backs, and cards taken back
        are face up.
        """
        loc = self.loc
        for ch in self.children[card]:
            if found[ch // 13] <= ch % 13 and (
                loc[ch] == FOUND or self.pos[ch] >= self.down[loc[ch]]
            ):
                return True
        return False

    def _block_can_end(self, found: list[int], tops: list[int], waiting: bytes) -> bool:
        # The multiset of tops as a mask of cards and a count of empty columns.
        mask = 0
        empties = 0
        for t in tops:
            if t == _EMPTY:
                empties += 1
            else:
                mask |= 1 << t
        memo_key = (
            mask,
            found[0]
            | found[1] << 4
            | found[2] << 8
            | found[3] << 12
            | empties << 16
            | self.down_key() << 19,
            waiting,
        )
        verdict = self.block_memo.get(memo_key)
        if verdict is not None:
            return verdict
        verdict = len(waiting) == 1 and self._can_exit(found, waiting[0])
        children = self.children
        if not verdict:
            safe_need = self.safe_need
            for s in range(4):
                rank = found[s]
                if not rank:
                    continue
                card = s * 13 + rank - 1
                need = safe_need[card]
                if (
                    need is not None
                    and found[0] >= need[0]
                    and found[1] >= need[1]
                    and found[2] >= need[2]
                    and found[3] >= need[3]
                ):
                    continue  # safe cards stay home
                lower = found[:]
                lower[s] = rank - 1
                for target in set(tops):
                    if target == _EMPTY:
                        if card % 13 != 12:
                            continue
                    elif card not in children[target]:
                        continue
                    moved = tops[:]
                    moved[moved.index(target)] = card
                    after = _took_back(waiting, card, -1 if target == _EMPTY else target)
                    if self._block_can_end(lower, moved, after):
                        verdict = True
                        break
                if verdict:
                    break
        self.block_memo[memo_key] = verdict
        return verdict

    # -- the search ------------------------------------------------------------

    def run(self, limit: int) -> bool:
        """Search on until ``limit`` positions have been entered; True once finished.

        When finished, :attr:`line` holds a winning line of primitive moves, or
        ``None`` when the search is exhausted (no win exists). The first call
        also enters the root, whatever ``limit`` says.

        Tarjan's algorithm runs along: each position entered gets an index,
        each frame keeps the lowest index its subtree reaches (through moves to
        open positions), and a frame whose lowest index is its own closes a
        strongly connected component: every position in it is lost
        (docs/solver.md, "Lost positions"), and moves into :attr:`lost`.
        """
        log = self.log
        frames = self.frames
        frame_keys = self.frame_keys
        positions = self.positions
        lows = self.lows
        seen = self.seen
        lost = self.lost
        scc = self.scc
        if not self.started:
            self.started = True
            self.autoplay()
            self.prefix = [(r & 63, (r >> 6) & 7) for r in log]
            log.clear()
            self.nodes = 1
            if self.on_found == 52:
                self.finished = True
                self.line = self.prefix
                return True
            if self.code in lost or self.dead():
                self.finished = True
                return True
            seen[self.code] = 0
            scc.append(self.code)
            frames.append([])
            frame_keys.append([])
            positions.append(0)
            self.low = 0
            self.moves(frames[0], frame_keys[0])
            lows.append(self.low)
            self.depth = 0
        depth = self.depth
        codes = self.codes
        pendings = self.pendings
        marks = self.marks
        while depth >= 0:
            if self.nodes >= limit:
                self.depth = depth
                return False
            moves = frames[depth]
            i = positions[depth]
            if i == len(moves):
                low = lows[depth]
                key = self.code
                if seen[key] == low:
                    # The root of a component: it and everything above it on
                    # Tarjan's stack are lost.
                    while True:
                        lost_key = scc.pop()
                        seen[lost_key] = -1
                        lost.add(lost_key)
                        if lost_key == key:
                            break
                if depth:
                    start = marks.pop()
                    while len(log) > start:
                        self.undo(log.pop())
                    self.code = codes.pop()
                    self.pending = pendings.pop()
                    if low < lows[depth - 1]:
                        lows[depth - 1] = low
                depth -= 1
                continue
            positions[depth] = i + 1
            move = -moves[i]
            card = (move >> _CARD_SHIFT) & 63
            dest = (move >> _DEST_SHIFT) & 7
            key = frame_keys[depth][move & 255]
            before = self.pending
            parent = self.code
            start = len(log)
            entered = self.nodes + 1
            if key:
                # A prepared move: nothing goes home after it. (One proven lost
                # by another search since it was prepared is entered, and closes
                # at once: its moves lead to lost positions.)
                index = seen.setdefault(key, entered)
                if index != entered:
                    if 0 <= index < lows[depth]:
                        lows[depth] = index  # entered since it was prepared
                    continue
                self.nodes = entered
                record = self.shift(card, dest)
                log.append(record)
                self.code = key
                if (record >> 9) & 7 == FOUND:
                    self.pending = self.took_back(card, self.top_under(dest))
                else:
                    self.pending = b""
                    if record >> 18 and self.dead():
                        seen[key] = -1
                        lost.add(key)
                        self.undo(log.pop())
                        self.code = parent
                        self.pending = before
                        continue
            else:
                log.append(self.apply(card, dest))
                if (log[start] >> 9) & 7 == FOUND:  # a take-back
                    if self.free_take_backs:
                        self.autoplay()
                    else:
                        self.set_pending(self.took_back(card, self.top_under(dest)))
                elif before:
                    self.set_pending(b"")
                    self.autoplay()
                else:
                    self.autoplay((log[start] >> 9) & 7)
                key = self.code
                index = -1 if key in lost else seen.setdefault(key, entered)
                if index != entered:
                    if 0 <= index < lows[depth]:
                        lows[depth] = index
                    while len(log) > start:
                        self.undo(log.pop())
                    self.code = parent
                    self.pending = before
                    continue
                self.nodes = entered
                if self.on_found == 52:
                    self.finished = True
                    self.line = self.prefix + [(r & 63, (r >> 6) & 7) for r in log]
                    return True
                if self.dead():
                    seen[key] = -1
                    lost.add(key)
                    while len(log) > start:
                        self.undo(log.pop())
                    self.code = parent
                    self.pending = before
                    continue
            scc.append(key)
            marks.append(start)
            codes.append(parent)
            pendings.append(before)
            depth += 1
            if depth == len(frames):
                frames.append([])
                frame_keys.append([])
                positions.append(0)
                lows.append(0)
            else:
                frames[depth].clear()
                frame_keys[depth].clear()
                positions[depth] = 0
            self.low = entered
            self.moves(frames[depth], frame_keys[depth])
            lows[depth] = self.low
        self.depth = depth
        self.finished = True
        return True

    def top_under(self, j: int) -> int:
        """The card under the last card of column ``j``, or :data:`BOTTOM`."""
        n = self.lens[j]
        return self.tab[j * _STRIDE + n - 2] if n > 1 else BOTTOM


def probe_budget(k: int, unit: int = PROBE_NODES) -> int:
    """Nodes of the ``k``-th probe (from 1): ``unit`` times the Luby sequence.

    1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: a probe that wins usually wins within
    a few thousand positions, so most probes stay short, while ever longer
    ones still come up now and then.
    """
    size = 1
    while size < k + 1:
        size = 2 * size + 1  # sizes of the sequence's self-similar blocks: 1, 3, 7, 15
    while True:
        if k == size:
            return unit * ((size + 1) // 2)
        half = size // 2
        if k > half:
            k -= half
        size = half


def _took_back(pending: bytes, card: int, target: int) -> bytes:
    """The waiting cards after taking ``card`` back onto ``target`` (not a card: an empty column).

    ``card`` waits for its own use; it uses the card it lands on and, when
    that card is waiting, the next higher card of its suit.
    """
    if not pending:
        return _BYTE[card]
    higher = card + 1 if card % 13 != 12 else -1
    kept = [p for p in pending if p != target and p != higher]
    kept.append(card)
    kept.sort()
    return bytes(kept)


@dataclass(frozen=True)
class Schedule:
    """How :func:`search` shares its budget: the defaults are the solver's own.

    After each probe the main search runs ``max(MAIN_SLICE, main_share * n)`` positions,
    ``n`` those of the probe; the ``k``-th probe gets ``probe_budget(k, probe_nodes)``
    positions, its move scores perturbed by up to ``probe_noise`` points.
    """

    main_share: float = 1.0
    probe_nodes: int = PROBE_NODES
    probe_noise: int = PROBE_NOISE


class Searcher(Protocol):
    """One depth-first search as :func:`search` drives it: :class:`Search`, or the C one."""

    @property
    def started(self) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def line(self) -> list[Step] | None: ...
    def run(self, limit: int) -> bool: ...


def table_entries(memory_mb: int, node_budget: int | None) -> int:
    """Positions the C search's table may hold: what ``memory_mb`` MiB allow, fewer under a
    node budget (all searches together enter at most that many, plus one root per probe).

    The table's slots are a power of two, at most three quarters of them used; it starts
    small and doubles, the old table alive while the entries move: its largest size plus
    half of it must fit.
    """
    slots = 1024
    while slots * 2 * ENTRY_BYTES * 3 // 2 <= memory_mb << 20:
        slots *= 2
    bound = slots * 3 // 4
    return bound if node_budget is None else min(bound, node_budget + 4096)


def search(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    foundations: Sequence[int],
    *,
    node_budget: int | None = None,
    time_budget: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    memory_mb: int = DEFAULT_TABLE_MB,
    interpreted: bool = False,
    schedule: Schedule | None = None,
) -> tuple[list[Step] | None, int]:
    """Decide a position: ``(line, nodes)``, ``line`` being ``None`` if it cannot be won.

    The main search visits moves in the heuristic order. In between its slices,
    short *probes* search the same position with randomly perturbed orders and
    their own transposition tables: a deal whose first choices mislead the main
    search is often won by a probe. Every search is exact on its own, so the
    first one to finish decides. Raises :class:`BudgetExceeded` otherwise.
    ``clock`` measures ``time_budget`` (wall-clock time unless told otherwise).

    The searches run in C where ``make install`` built it (unless ``interpreted``), entering
    the very same positions; their table then holds at most what ``memory_mb`` allows, and
    a full table stops the search (``BudgetExceeded("memory-budget")``).
    ``schedule`` changes how the main search and the probes share the budget (only
    ``benchmarks.solver_schedules`` does, to measure another split).
    """
    plan = schedule or Schedule()
    started = clock()
    node_limit = node_budget if node_budget is not None else 1 << 62
    deadline = started + time_budget if time_budget is not None else float("inf")

    lost: set[int] = set()
    core: Any = None
    if _C_SEARCH is not None and not interpreted:
        core = _C_SEARCH.Core(
            tables.parents,
            tables.children,
            tables.safe_need,
            tables.fits,
            columns,
            down,
            foundations,
            table_entries(memory_mb, node_budget),
        )

    def make(noise: int, seed: int, main: bool = False) -> Searcher:
        if core is not None:
            searcher: Searcher = core.search(noise, seed, noise > 0, main)
            return searcher
        return Search(
            tables,
            columns,
            down,
            foundations,
            noise=noise,
            seed=seed,
            free_take_backs=noise > 0,
            lost=lost,
        )

    main = make(0, 0, main=True)
    probe = make(0, 0)  # placeholder: the first slice runs the main search only
    spent = 0  # nodes of finished probes
    probes = 0
    slice_end = MAIN_SLICE
    probe_end = 0

    def advance(current: Searcher, limit: int) -> bool:
        """Run ``current`` up to ``limit`` nodes; True when it finished."""
        while not current.started or current.nodes < limit:
            others = spent + main.nodes + probe.nodes - current.nodes
            try:
                finished = current.run(min(limit, node_limit - others, current.nodes + CHECK_EVERY))
            except Exception as error:
                if core is None or not isinstance(error, _C_SEARCH.TableFull):
                    raise
                raise BudgetExceeded("memory-budget", spent + main.nodes + probe.nodes) from None
            if finished:
                return True
            total = spent + main.nodes + probe.nodes
            if total >= node_limit:
                raise BudgetExceeded("node-budget", total)
            if clock() > deadline:
                raise BudgetExceeded("time-budget", total)
        return False

    while True:
        if advance(main, slice_end):
            return main.line, spent + main.nodes + probe.nodes
        if probes and advance(probe, probe_end):
            return probe.line, spent + main.nodes + probe.nodes
        slice_end = main.nodes + max(MAIN_SLICE, int(probe.nodes * plan.main_share))
        spent += probe.nodes
        probes += 1
        probe = make(plan.probe_noise, probes)
        probe_end = probe_budget(probes, plan.probe_nodes)
