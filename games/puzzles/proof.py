"""The proof that a position is a puzzle: exactly one legal move keeps the win.

A position is a puzzle when the solver proves a win after one of its legal moves (with a
line) and proves every other legal move lost (`unwinnable`: its search was exhaustive
under the reductions docs/solver.md proves sound). An `unknown` anywhere disqualifies the
position: nothing here is guessed. The answer may go on for up to `MAX_STEPS` moves while
each next position again has exactly one winning move, and only while no move of the
answer turns up a face-down card: every card an answer moves, and every board shown
between its moves, is one the player already sees.

Engine and solver only (no Django): the mining (`games.puzzles.mining`) stores what this
proves, and the tests check it against a plain exhaustive search.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Game, Move
from games.engine.lines import without_loops
from games.engine.solver import SolveResult, solve

#: The longest answer: each of its moves is the only one that keeps the win.
MAX_STEPS = 3
#: Difficulty runs from 1 (easy) to this.
MAX_DIFFICULTY = 5
#: A public puzzle (the daily puzzle, the shared deck) offers at least this many plausible
#: moves: with two, a guess is right half the time.
PUBLIC_PLAUSIBLE = 3


@dataclass(frozen=True)
class Step:
    """One move of an answer: the position had `legal` moves and only `move` kept the win;
    proving the `legal - 1` others lost took `refutation_nodes` solver positions."""

    move: Move
    legal: int
    refutation_nodes: int


@dataclass(frozen=True)
class Proof:
    """A puzzle's answer, proven step by step, and what its difficulty is read from."""

    steps: tuple[Step, ...]
    #: Moves of the solver's winning line (without loops) after the answer's last move.
    line_after: int

    @property
    def solution(self) -> list[Move]:
        return [step.move for step in self.steps]

    @property
    def refutation_nodes(self) -> int:
        """Solver positions spent proving every wrong move of every step lost."""
        return sum(step.refutation_nodes for step in self.steps)

    @property
    def difficulty(self) -> int:
        """1 to 5, from what makes the move hard to find (docs/puzzles.md, "Difficulty"):

        - the wrong moves on offer: one (+0), two or three (+1), four or more (+2);
        - each move of the answer after the first (+1 each);
        - how far the wrong moves' loss lies: proven in under 200 solver positions (+0), under
          5,000 (+1), more (+2); a loss seen at once is easy to avoid;
        - a long way to the win after the answer (40 moves or more, +1).
        """
        wrong = self.steps[0].legal - 1
        points = 0 if wrong <= 1 else 1 if wrong <= 3 else 2
        points += len(self.steps) - 1
        nodes = self.refutation_nodes
        points += 0 if nodes < 200 else 1 if nodes < 5_000 else 2
        points += 1 if self.line_after >= 40 else 0
        return min(MAX_DIFFICULTY, 1 + points)


def _shape(game: Game) -> tuple[object, ...]:
    """The position with the columns as a set (no rule refers to a column's place)."""
    columns, face_down, foundations = game.state_key()
    return (tuple(sorted(zip(columns, face_down, strict=True))), foundations)


def plausible_moves(game: Game) -> int:
    """The legal moves that are real choices: those leading to different positions, none of
    them the position itself. Putting the same cards in another empty column is the same
    choice, and moving a whole column to an empty one changes nothing. `game` is not changed."""
    here = _shape(game)
    reached = set()
    for move in list(game.legal_moves):
        game.push(move)
        try:
            reached.add(_shape(game))
        finally:
            game.pop()
    reached.discard(here)
    return len(reached)


@dataclass(frozen=True)
class _Only:
    move: Move
    legal: int
    refutation_nodes: int
    after: SolveResult


def _only_winning_move(game: Game, node_budget: int) -> _Only | None:
    """The one move after which the position is proven winnable, every other move proven
    lost; None when there are fewer than two legal moves, two winners, or an `unknown`."""
    moves = list(game.legal_moves)
    if len(moves) < 2:
        return None
    winner: tuple[Move, SolveResult] | None = None
    nodes = 0
    for move in moves:
        game.push(move)
        try:
            result = solve(game, node_budget=node_budget)
        finally:
            game.pop()
        if result.verdict == "unknown":
            return None
        if result.verdict == "winnable":
            if winner is not None:
                return None
            winner = (move, result)
        else:
            nodes += result.nodes
    if winner is None:
        return None
    return _Only(winner[0], len(moves), nodes, winner[1])


def prove(position: Game, node_budget: int) -> Proof | None:
    """The position's puzzle answer, proven, or None when the position is no puzzle.

    Every solve gets `node_budget` solver positions. `position` is not changed.
    """
    board = position.copy()
    steps: list[Step] = []
    after: SolveResult | None = None
    while len(steps) < MAX_STEPS:
        only = _only_winning_move(board, node_budget)
        if only is None:
            break
        steps.append(Step(only.move, only.legal, only.refutation_nodes))
        after = only.after
        played = board.play(only.move)
        if played.turned_up is not None or played.won:
            break
    if after is None:
        return None
    return Proof(tuple(steps), len(without_loops(board, after.line)))
