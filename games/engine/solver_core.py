"""The search behind :func:`games.engine.solver.solve`, on a compact integer state.

Cards are engine indexes (``suit * 13 + rank - 1``). Each column is a ``bytes``
object, bottom to top; a face-down card is stored as ``index | HIDDEN`` so a
search for a face-up card never finds it. Columns are immutable values: a move
replaces the two columns it touches and undo puts the old objects back.

The search is a depth-first search over *macro moves* (a move followed by the
safe foundation moves it enables) with a transposition table keyed by the
sorted columns, which makes column order irrelevant, and take-backs played
only right before their use. ``docs/solver.md`` explains why each reduction
keeps the answer exact.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import KINGS
from .rules import GROUP_LIMIT

#: ``loc`` value and move destination for the foundations.
FOUND: Final = 7
#: Added to a face-down card's index in a column's bytes.
HIDDEN: Final = 64
#: Nodes of the main search between two probes.
MAIN_SLICE: Final = 2048
#: Nodes of the shortest probe (see :func:`probe_budget`).
PROBE_NODES: Final = 1024
#: Random points added to a probe's move scores (the scores step by 5..40).
PROBE_NOISE: Final = 120
#: Nodes between two looks at the clock.
CHECK_EVERY: Final = 64
#: Separator between columns in a state key (never a card byte).
_SEP: Final = b"\xff"
#: Marks a state key whose position waits for a move onto a taken-back card.
_PENDING: Final = b"\xfe"

#: A primitive move: (card, destination column 0..6 or FOUND).
type Step = tuple[int, int]
#: An undo record: (card, dest, src, old src column, old dest column, old down[src]).
type _Undo = tuple[int, int, int, bytes, bytes, int]
#: A candidate move, best first when sorted in reverse: (score, card, dest,
#: child key, from column or FOUND, new from column, new dest column, turns up
#: 0/1, waiting cards after it).
#: The key is ``None`` unless the move is prepared (see :meth:`Search.moves`).
type Candidate = tuple[int, int, int, bytes | None, int, bytes, bytes, int, bytes]
#: A tableau move found by move generation: (score, card, from column, index there, to column).
type _Tableau = tuple[int, int, int, int, int]
#: A take-back found by move generation: (score, card, to column).
type _Back = tuple[int, int, int]
#: A column top that stands for an empty column in :meth:`Search.block_can_end`.
_EMPTY: Final = 255
#: One-byte ``bytes`` for every byte value.
_BYTE: Final = tuple(bytes((b,)) for b in range(256))


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
    return Tables(parents, children, tuple(safe_need))


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
    ) -> None:
        self.parents = tables.parents
        self.children = tables.children
        self.safe_need = tables.safe_need
        self.cols: list[bytes] = [
            bytes([c | HIDDEN for c in col[:d]] + list(col[d:]))
            for col, d in zip(columns, down, strict=True)
        ]
        self.down: list[int] = list(down)
        self.found: list[int] = list(foundations)
        self.on_found = sum(self.found)
        self.loc: list[int] = [FOUND] * 52
        #: Each card's index in its column (kept for cards in columns only): a
        #: face-down card is one below the column's face-down count.
        self.pos: list[int] = [0] * 52
        for i, col in enumerate(columns):
            for p, c in enumerate(col):
                self.loc[c] = i
                self.pos[c] = p
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
        # The depth-first stack: candidate moves and the next index at each
        # depth, the undo records of each step taken, and the waiting cards
        # before each step.
        self.stack: list[list[Candidate]] = []
        self.positions: list[int] = []
        self.path: list[list[_Undo]] = []
        self.pendings: list[bytes] = []
        #: Cards taken back from the foundations and not yet used (sorted; see
        #: :meth:`pending_moves`). Part of the state key.
        self.pending = b""
        self.seen: set[bytes] = set()
        self.dead_memo: dict[bytes, bool] = {}
        #: The columns in key order while :meth:`moves` prepares (see :meth:`prepare`).
        self.ordered: list[bytes] | None = None
        self.block_memo: dict[bytes, bool] = {}

    # -- state changes -------------------------------------------------------

    def apply(self, card: int, dest: int) -> _Undo:
        """Make a legal move; return what :meth:`undo` needs."""
        loc = self.loc
        pos = self.pos
        cols = self.cols
        src = loc[card]
        if src == FOUND:
            old_dest = cols[dest]
            cols[dest] = old_dest + _BYTE[card]
            loc[card] = dest
            pos[card] = len(old_dest)
            self.found[card // 13] -= 1
            self.on_found -= 1
            return (card, dest, FOUND, b"", old_dest, 0)
        old_src = cols[src]
        old_down = self.down[src]
        if dest == FOUND:
            rest = old_src[:-1]
            loc[card] = FOUND
            self.found[card // 13] += 1
            self.on_found += 1
            old_dest = b""
        else:
            i = pos[card]
            rest = old_src[:i]
            old_dest = cols[dest]
            cols[dest] = old_dest + old_src[i:]
            shift = len(old_dest) - i
            for x in range(i, len(old_src)):
                g = old_src[x]
                loc[g] = dest
                pos[g] = x + shift
        if old_down and len(rest) == old_down:
            rest = rest[:-1] + bytes((rest[-1] ^ HIDDEN,))
            self.down[src] = old_down - 1
        cols[src] = rest
        return (card, dest, src, old_src, old_dest, old_down)

    def undo(self, record: _Undo) -> None:
        """Exactly reverse :meth:`apply`."""
        card, dest, src, old_src, old_dest, old_down = record
        cols = self.cols
        loc = self.loc
        if src == FOUND:
            cols[dest] = old_dest
            loc[card] = FOUND
            self.found[card // 13] += 1
            self.on_found += 1
            return
        if dest == FOUND:
            loc[card] = src
            self.pos[card] = len(old_src) - 1  # a take-back in between may have moved it
            self.found[card // 13] -= 1
            self.on_found -= 1
        else:
            new_dest = cols[dest]
            cols[dest] = old_dest
            pos = self.pos
            shift = len(old_src) - len(new_dest)
            for x in range(len(old_dest), len(new_dest)):
                g = new_dest[x]
                loc[g] = src
                pos[g] = x + shift
        cols[src] = old_src
        self.down[src] = old_down

    def autoplay(self, done: list[_Undo], src: int = -1) -> None:
        """Play every safe foundation move (docs/solver.md), appending undo records.

        ``src``: the column a tableau move or foundation move just left, from a
        position where no safe move was left: if its new last card cannot go
        home safely, no other card can either, unless a foundation just grew.
        """
        cols = self.cols
        found = self.found
        safe_need = self.safe_need
        if src >= 0 and done[-1][1] != FOUND:
            col = cols[src]
            if not col:
                return
            t = col[-1]
            if found[t // 13] != t % 13:
                return
            need = safe_need[t]
            if need is None or not (
                found[0] >= need[0]
                and found[1] >= need[1]
                and found[2] >= need[2]
                and found[3] >= need[3]
            ):
                return
        progress = True
        while progress:
            progress = False
            for col in cols:
                if not col:
                    continue
                t = col[-1]
                if found[t // 13] != t % 13:
                    continue
                need = safe_need[t]
                if (
                    need is not None
                    and found[0] >= need[0]
                    and found[1] >= need[1]
                    and found[2] >= need[2]
                    and found[3] >= need[3]
                ):
                    done.append(self.apply(t, FOUND))
                    progress = True
                    break

    def key(self) -> bytes:
        """The position up to column order (foundations follow from the tableau)."""
        if self.pending:
            return _SEP.join(sorted(self.cols)) + _PENDING + self.pending
        return _SEP.join(sorted(self.cols))

    # -- dead positions ------------------------------------------------------

    def dead(self) -> bool:
        """Whether some face-down card can provably never be turned up (memoised)."""
        memo_key = bytes(self.down)
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

    def moves(self) -> list[Candidate]:
        """Candidate moves, best first; pointless ones are left out (docs/solver.md)."""
        self.ordered = None
        if self.pending:
            onto_waiting, more_backs = self.pending_moves(self.pending)
            prepared: list[Candidate] = []
            for score, card, j, i, k in onto_waiting:
                self.prepare(prepared, score, card, j, i, k)
            self.prepare_backs(more_backs, prepared)
            return prepared
        cols = self.cols
        loc = self.loc
        pos = self.pos
        found = self.found
        down = self.down
        parents = self.parents
        children = self.children
        noise = self.noise
        rand = self.random if noise else None
        out: list[Candidate] = []
        backs: list[_Back] = []
        empty = -1
        for k in range(7):
            col = cols[k]
            if not col:
                if empty < 0:
                    empty = k
                continue
            t = col[-1]
            if found[t // 13] == t % 13:
                n = len(col)
                if n == 1:
                    score = 60
                elif down[k] == n - 1:
                    score = 90 + down[k]
                else:
                    score = 40
                if rand is not None:
                    score += int(rand() * noise)
                out.append((score, t, FOUND, None, 0, b"", b"", 0, b""))
            for ch in children[t]:
                j = loc[ch]
                if j == k:
                    continue
                if j == FOUND:
                    if found[ch // 13] == ch % 13 + 1 and not self.back_is_pointless(ch):
                        backs.append((int(rand() * noise) if rand else 0, ch, k))
                    continue
                src = cols[j]
                i = pos[ch]
                if i < down[j] or len(src) - i > GROUP_LIMIT:
                    continue  # face down, or too large a group
                if i == 0:
                    score = 70
                elif down[j] == i:
                    score = 100 + down[j]
                elif src[i - 1] in parents[ch]:
                    score = 5
                else:
                    score = 30
                if rand is not None:
                    score += int(rand() * noise)
                self.prepare(out, score, ch, j, i, k)
        if empty >= 0:
            for king in KINGS:
                j = loc[king]
                if j == FOUND:
                    if found[king // 13] == 13 and not self.back_is_pointless(king):
                        backs.append((1 + (int(rand() * noise) if rand else 0), king, empty))
                    continue
                src = cols[j]
                i = pos[king]
                if i == 0 or i < down[j] or len(src) - i > GROUP_LIMIT:
                    continue  # a whole column, face down, or too large a group
                score = (100 + down[j] if down[j] == i else 20) + (
                    int(rand() * noise) if rand else 0
                )
                self.prepare(out, score, king, j, i, empty)
        self.prepare_backs(backs, out)
        out.sort(reverse=True)
        return out

    def prepare(self, out: list[Candidate], score: int, card: int, j: int, i: int, k: int) -> None:
        """Append the candidate for the tableau move of ``card`` (``j``, index ``i``) to ``k``.

        A move after which nothing goes home safely is *prepared*: its new
        columns and the child's state key are built here, a child already in
        the table is dropped without being played, and :meth:`run` plays the
        others by swapping the columns in. The rest keep a ``None`` key and are
        played the long way (:meth:`apply`, then autoplay).

        A key joins the columns in sorted order. Columns that are not empty
        differ in their first byte (each card is in one place), so a move that
        changes neither column's first byte (it neither empties nor fills a
        column, nor turns up a column's only face-down card) keeps the order of
        :attr:`ordered`, the parent's sorted columns: the two changed columns
        take the places of their old values, with no sort.
        """
        cols = self.cols
        src = cols[j]
        rest = src[:i]
        flip = 1 if i and self.down[j] == i else 0
        if flip:
            rest = rest[:-1] + _BYTE[rest[-1] ^ HIDDEN]
        if i:
            # The uncovered card is the only one that can have become safe
            # (no other column top was safe before the move).
            u = rest[-1]
            found = self.found
            if found[u // 13] == u % 13:
                need = self.safe_need[u]
                if (
                    need is not None
                    and found[0] >= need[0]
                    and found[1] >= need[1]
                    and found[2] >= need[2]
                    and found[3] >= need[3]
                ):
                    out.append((score, card, k, None, 0, b"", b"", 0, b""))
                    return
        dest = cols[k]
        grown = dest + src[i:]
        if dest and (i > 1 or (i == 1 and not flip)):
            ordered = self.ordered
            if ordered is None:
                ordered = self.ordered = sorted(cols)
            key = _SEP.join([rest if c is src else grown if c is dest else c for c in ordered])
        else:
            child = cols[:]
            child[j] = rest
            child[k] = grown
            key = _SEP.join(sorted(child))
        if key not in self.seen:
            out.append((score, card, k, key, j, rest, grown, flip, b""))

    def prepare_backs(self, backs: list[_Back], out: list[Candidate]) -> None:
        """Append the candidates for the take-backs ``backs`` to ``out``.

        In the main search a take-back is prepared as a tableau move is (see
        :meth:`prepare`); the probes play it the long way.
        """
        if self.free_take_backs:
            out.extend((score, card, k, None, 0, b"", b"", 0, b"") for score, card, k in backs)
            return
        cols = self.cols
        seen = self.seen
        for score, card, k in backs:
            col = cols[k]
            waiting = self.took_back(card, col[-1] if col else -1)
            if not self.block_can_end(card, k, waiting):
                continue
            grown = col + _BYTE[card]
            child = cols[:]
            child[k] = grown
            key = _SEP.join(sorted(child)) + _PENDING + waiting
            if key not in seen:
                out.append((score, card, k, key, FOUND, b"", grown, 0, waiting))

    def pending_moves(self, pending: bytes) -> tuple[list[_Tableau], list[_Back]]:
        """After take-backs: moves onto the one card still waiting, and more take-backs.

        Some shortest winning line takes a card back only right before it is
        used, with nothing but take-backs in between (docs/solver.md,
        "Take-backs"), so nothing else is tried while cards are waiting.
        """
        cols = self.cols
        loc = self.loc
        found = self.found
        children = self.children
        tableau: list[_Tableau] = []
        backs: list[_Back] = []
        if len(pending) == 1:
            card = pending[0]
            k = loc[card]
            for ch in children[card]:
                j = loc[ch]
                if j in (FOUND, k):
                    continue
                src = cols[j]
                i = self.pos[ch]
                if i >= self.down[j] and len(src) - i <= GROUP_LIMIT:
                    tableau.append((0, ch, j, i, k))
        empty = -1
        for j in range(7):
            col = cols[j]
            if not col:
                if empty < 0:
                    empty = j
                continue
            for ch in children[col[-1]]:
                if (
                    loc[ch] == FOUND
                    and found[ch // 13] == ch % 13 + 1
                    and not self.back_is_pointless(ch)
                ):
                    backs.append((0, ch, j))
        if empty >= 0:
            for king in KINGS:
                if (
                    loc[king] == FOUND
                    and found[king // 13] == 13
                    and not self.back_is_pointless(king)
                ):
                    backs.append((0, king, empty))
        return tableau, backs

    def back_is_pointless(self, card: int) -> bool:
        """Whether taking ``card`` (a foundation's top) back can be left out.

        It can when the card would be safe to send home again at once: then
        no shortest winning line takes it back (docs/solver.md, "Safe cards
        stay home"). The card's own suit is at its rank, which its need
        allows, so the current foundations decide. The same four-way test is
        written out where autoplay and move generation need it: a call there
        cost 10% of the node rate (`benchmarks.solver_speed`, 0.93x against 1.03x).
        """
        need = self.safe_need[card]
        found = self.found
        return (
            need is not None
            and found[0] >= need[0]
            and found[1] >= need[1]
            and found[2] >= need[2]
            and found[3] >= need[3]
        )

    def took_back(self, card: int, target: int) -> bytes:
        """The waiting cards after taking ``card`` back onto ``target`` (-1: an empty column)."""
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
        found[card // 13] -= 1
        if len(waiting) == 1 and self._can_exit(found, waiting[0]):
            return True
        tops = [col[-1] if col else _EMPTY for col in self.cols]
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
        memo_key = bytes(found) + bytes(sorted(tops)) + bytes(self.down) + waiting
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
        """
        if not self.started:
            self.started = True
            root: list[_Undo] = []
            self.autoplay(root)
            self.prefix = [(r[0], r[1]) for r in root]
            self.nodes = 1
            if self.on_found == 52:
                self.finished = True
                self.line = self.prefix
                return True
            self.seen.add(self.key())
            if self.dead():
                self.finished = True
                return True
            self.stack.append(self.moves())
            self.positions.append(0)
        stack = self.stack
        positions = self.positions
        path = self.path
        pendings = self.pendings
        seen = self.seen
        cols = self.cols
        loc = self.loc
        pos = self.pos
        down = self.down
        found = self.found
        apply = self.apply
        undo = self.undo
        autoplay = self.autoplay
        key_of = self.key
        while stack:
            if self.nodes >= limit:
                return False
            moves = stack[-1]
            i = positions[-1]
            if i == len(moves):
                stack.pop()
                positions.pop()
                if path:
                    for record in reversed(path.pop()):
                        undo(record)
                    self.pending = pendings.pop()
                continue
            positions[-1] = i + 1
            _, card, dest, key, src, rest, grown, flip, waiting = moves[i]
            before = self.pending
            if key is not None:
                # A prepared move: nothing goes home after it.
                if key in seen:
                    continue
                seen.add(key)
                self.nodes += 1
                old_dest = cols[dest]
                cols[dest] = grown
                if src == FOUND:
                    loc[card] = dest
                    pos[card] = len(old_dest)
                    found[card // 13] -= 1
                    self.on_found -= 1
                    self.pending = waiting
                    done = [(card, dest, FOUND, b"", old_dest, 0)]
                else:
                    old_src = cols[src]
                    old_down = down[src]
                    cols[src] = rest
                    shift = len(old_dest) - len(rest)
                    for x in range(len(rest), len(old_src)):
                        g = old_src[x]
                        loc[g] = dest
                        pos[g] = x + shift
                    self.pending = b""
                    done = [(card, dest, src, old_src, old_dest, old_down)]
                    if flip:
                        down[src] = old_down - 1
                        if self.dead():
                            undo(done[0])
                            self.pending = before
                            continue
                path.append(done)
                pendings.append(before)
                stack.append(self.moves())
                positions.append(0)
                continue
            first = apply(card, dest)
            done = [first]
            src = first[2]
            if src == FOUND:
                if self.free_take_backs:
                    autoplay(done)
                else:
                    col = self.cols[dest]
                    self.pending = self.took_back(card, col[-2] if len(col) > 1 else -1)
            elif before:
                self.pending = b""
                autoplay(done)
            else:
                autoplay(done, src)
            key = key_of()
            if key in seen:
                for record in reversed(done):
                    undo(record)
                self.pending = before
                continue
            seen.add(key)
            self.nodes += 1
            if self.on_found == 52:
                path.append(done)
                self.finished = True
                self.line = self.prefix + [(r[0], r[1]) for step in path for r in step]
                return True
            if self.dead():
                for record in reversed(done):
                    undo(record)
                self.pending = before
                continue
            path.append(done)
            pendings.append(before)
            stack.append(self.moves())
            positions.append(0)
        self.finished = True
        return True


def probe_budget(k: int) -> int:
    """Nodes of the ``k``-th probe (from 1): ``PROBE_NODES`` times the Luby sequence.

    1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: a probe that wins usually wins within
    a few thousand positions, so most probes stay short, while ever longer
    ones still come up now and then.
    """
    size = 1
    while size < k + 1:
        size = 2 * size + 1  # sizes of the sequence's self-similar blocks: 1, 3, 7, 15
    while True:
        if k == size:
            return PROBE_NODES * ((size + 1) // 2)
        half = size // 2
        if k > half:
            k -= half
        size = half


def _took_back(pending: bytes, card: int, target: int) -> bytes:
    """The waiting cards after taking ``card`` back onto ``target`` (-1: an empty column).

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


def search(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    foundations: Sequence[int],
    *,
    node_budget: int | None = None,
    time_budget: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[Step] | None, int]:
    """Decide a position: ``(line, nodes)``, ``line`` being ``None`` if it cannot be won.

    The main search visits moves in the heuristic order. In between its slices,
    short *probes* search the same position with randomly perturbed orders and
    their own transposition tables: a deal whose first choices mislead the main
    search is often won by a probe. Every search is exact on its own, so the
    first one to finish decides. Raises :class:`BudgetExceeded` otherwise.
    ``clock`` measures ``time_budget`` (wall-clock time unless told otherwise).
    """
    started = clock()
    node_limit = node_budget if node_budget is not None else 1 << 62
    deadline = started + time_budget if time_budget is not None else float("inf")

    def make(noise: int, seed: int) -> Search:
        return Search(
            tables, columns, down, foundations, noise=noise, seed=seed, free_take_backs=noise > 0
        )

    main = make(0, 0)
    probe = make(0, 0)  # placeholder: the first slice runs the main search only
    spent = 0  # nodes of finished probes
    probes = 0
    slice_end = MAIN_SLICE
    probe_end = 0

    def advance(current: Search, limit: int) -> bool:
        """Run ``current`` up to ``limit`` nodes; True when it finished."""
        while not current.started or current.nodes < limit:
            others = spent + main.nodes + probe.nodes - current.nodes
            if current.run(min(limit, node_limit - others, current.nodes + CHECK_EVERY)):
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
        slice_end = main.nodes + max(MAIN_SLICE, probe.nodes)
        spent += probe.nodes
        probes += 1
        probe = make(PROBE_NOISE, probes)
        probe_end = probe_budget(probes)
