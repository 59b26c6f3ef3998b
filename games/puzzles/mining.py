"""Finding puzzles: in a lost game's turning point, and along the solver's lines of the
server's own self-play deals.

Both run on the task workers (or `manage.py mine_puzzles`, `manage.py stock_puzzles`),
within node budgets: each solve of a candidate's moves gets `settings.PUZZLE_SOLVER_NODES`
solver positions, and a candidate any of whose moves stays `unknown` is dropped
(games.puzzles.proof). Storing is keyed by the position, so mining a game twice adds nothing.

Where they come from (docs/puzzles.md):

- a lost game (its analysis found where the win was lost): the position before the losing
  move, where the better move may be the only winning one, then the positions along the
  analysis's way to win from there. The game's analysis is public and tells the answer, so
  each puzzle found goes into the game owner's deck and nobody else's
  (games.fairness.visibility.puzzle_visible);
- a self-play deal: dealt under the self-play key (games.deals.self_play_key), which no game
  code reaches, and played along the solver's line. Nobody can look its answer up, so its
  puzzles are public: the daily puzzle and everybody's new puzzles. Only positions with at
  least `PUBLIC_PLAUSIBLE` plausible moves are tried.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from games import deals
from games.analysis.models import GameAnalysis
from games.engine import DEAL_COUNT, Game, GameCode, Move, Rule, private_form
from games.engine.lines import without_loops
from games.engine.solver import solve
from games.models import Game as StoredGame
from games.puzzles import deck, ratings
from games.puzzles.models import Puzzle
from games.puzzles.proof import PUBLIC_PLAUSIBLE, Proof, plausible_moves, prove

#: Positions along a lost game's way to win tried after its turning point.
LINE_POSITIONS = 10
#: Puzzles kept from one game, and from one self-play deal (so a pool comes from many deals).
MAX_PER_GAME = 3
MAX_PER_DEAL = 3
#: Solver positions for finding a self-play deal's winning line (the daily deal's budget).
DEAL_NODES = 100_000


def node_budget() -> int:
    """Solver positions per solve while proving a candidate."""
    return int(settings.PUZZLE_SOLVER_NODES)


def stored_position(game: Game) -> dict[str, Any]:
    """The private form a puzzle keeps: the cards where they lie, without the deal's code, the
    score, the move count or an undo window (none of them is the puzzle's)."""
    private = private_form(game)
    return {**private, "code": None, "score": 0, "move_count": 0, "undo": []}


def position_key(game: Game) -> str:
    """The position told apart from every other: rule, foundations and the columns as a set
    (no rule refers to a column's place, so permuted columns are one puzzle)."""
    private = private_form(game)
    columns = sorted(
        (" ".join(column["face_down"]), " ".join(column["face_up"]))
        for column in private["columns"]
    )
    text = json.dumps([private["rule"], private["foundations"], columns])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Candidate:
    """A position to try, and where it comes from."""

    position: Game
    version: int | None = None
    line_step: int = 0


def store(candidate: Candidate, proof: Proof, *, code: str, game: StoredGame | None) -> Puzzle:
    """Keep a proven puzzle (the existing one when its position is already kept)."""
    position = candidate.position
    mu, sigma, rating = ratings.seed(proof.difficulty)
    puzzle, _ = Puzzle.objects.get_or_create(
        position_key=position_key(position),
        defaults={
            "position": stored_position(position),
            "rule": position.rule.letter,
            "solution": [str(move) for move in proof.solution],
            "legal_moves": proof.steps[0].legal,
            "plausible_moves": plausible_moves(position),
            "face_down": sum(column.face_down for column in position.columns),
            "refutation_nodes": proof.refutation_nodes,
            "line_after": proof.line_after,
            "difficulty": proof.difficulty,
            "source": Puzzle.Source.GAME if game is not None else Puzzle.Source.SELF_PLAY,
            "code": code,
            "game": game,
            "version": candidate.version,
            "line_step": candidate.line_step,
            "mu": mu,
            "sigma": sigma,
            "rating": rating,
        },
    )
    return puzzle


def _mine(
    candidates: list[Candidate],
    most: int,
    least_plausible: int = 2,
    deadline: float = math.inf,
) -> Iterator[tuple[Candidate, Proof]]:
    """The candidates with `least_plausible` plausible moves or more that prove to be puzzles,
    at most `most`, none started after `deadline` (`time.monotonic()`); a position an answer
    passes through is not tried again (it would be the same puzzle, shorter)."""
    found = 0
    skip = 0
    for candidate in candidates:
        if found >= most or time.monotonic() >= deadline:
            return
        if skip:
            skip -= 1
            continue
        if plausible_moves(candidate.position) < least_plausible:
            continue
        proof = prove(candidate.position, node_budget())
        if proof is None:
            continue
        found += 1
        skip = len(proof.steps) - 1
        yield candidate, proof


def game_candidates(game: StoredGame, job: GameAnalysis) -> list[Candidate]:
    """The position before the losing move, then the positions along the way to win."""
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    assert job.losing_version is not None
    version = job.losing_version - 1
    board = deals.replayed(game, texts[:version])
    candidates = [Candidate(board.copy(), version, 0)]
    for step, text in enumerate(job.turning_line[:LINE_POSITIONS], start=1):
        board.play(Move.parse(text))
        if board.won:
            break
        candidates.append(Candidate(board.copy(), version, step))
    return candidates


def mine_game(game_id: int) -> int:
    """Mine a lost game's turning point; each puzzle also joins its owner's deck. Returns how
    many puzzles the game gave (found now or by an earlier run)."""
    game = StoredGame.objects.filter(pk=game_id).first()
    job = GameAnalysis.objects.filter(game_id=game_id).first()
    if game is None or job is None or job.turning != "lost" or job.losing_version is None:
        return 0
    given = 0
    for candidate, proof in _mine(game_candidates(game, job), MAX_PER_GAME):
        with transaction.atomic():
            puzzle = store(candidate, proof, code=game.code, game=game)
            deck.add_own(game.owner_id, puzzle)
        given += 1
    return given


def deal_candidates(code: GameCode) -> list[Candidate]:
    """The positions along the solver's winning line of self-play deal `code` (none if not
    proven winnable)."""
    start = deals.self_play_deal(code)
    result = solve(start, node_budget=DEAL_NODES)
    if result.verdict != "winnable":
        return []
    board = start.copy()
    candidates = []
    for move in without_loops(start, result.line):
        candidates.append(Candidate(board.copy()))
        board.play(move)
    return candidates


def mine_deal(code: GameCode, seconds: float = math.inf) -> list[Puzzle]:
    """The public puzzles along one self-play deal's solver line (at most `MAX_PER_DEAL`),
    no candidate started after `seconds`."""
    deadline = time.monotonic() + seconds
    kept = []
    candidates = deal_candidates(code)
    for candidate, proof in _mine(candidates, MAX_PER_DEAL, PUBLIC_PLAUSIBLE, deadline):
        kept.append(store(candidate, proof, code=str(code), game=None))
    return kept


def mine_deals(
    count: int, rule: Rule, chooser: random.Random, max_deals: int
) -> tuple[list[Puzzle], int]:
    """Self-play deals under `rule` (numbers drawn by `chooser`), mined until `count` puzzles
    are kept or `max_deals` deals were tried: the puzzles and the deals tried."""
    kept: list[Puzzle] = []
    tried = 0
    while len(kept) < count and tried < max_deals:
        tried += 1
        kept += mine_deal(GameCode(rule, chooser.randrange(DEAL_COUNT)))
    return kept, tried
