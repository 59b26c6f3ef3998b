"""A puzzle's proof against a plain exhaustive search (tests/support/exhaustive.py), which knows
nothing of the solver: on small positions (a few cards left, the rest home) the answer the
proof names is the one move after which a win exists, every other move leaves none, and the
answer goes on exactly as long as each next position has one such move."""

from __future__ import annotations

import random

import pytest

from games.engine import CLASSIC, RULES, Game, Move
from games.puzzles.proof import MAX_STEPS, Proof, Step, plausible_moves, prove
from tests.puzzles.small_positions import SHAPES, pinned, random_position
from tests.solver.test_variants_exhaustive import position_key
from tests.support.exhaustive import exhaustively_winnable

#: Small positions need far fewer solver positions than this: the proof is never `unknown`.
NODES = 200_000
#: Positions the exhaustive search may enter per move judged: a pinned position, a random one
#: (those it cannot decide within this are left out).
EXHAUSTIVE_LIMIT = 20_000
RANDOM_LIMIT = 4_000
#: Random small positions compared, per rule.
SAMPLE = 20


def winners(game: Game, limit: int) -> list[Move] | None:
    """The legal moves after which the exhaustive search finds a win (None: it gave up)."""
    found = []
    for move in list(game.legal_moves):
        game.push(move)
        try:
            won = exhaustively_winnable(game, limit, position_key)
        finally:
            game.pop()
        if won is None:
            return None
        if won:
            found.append(move)
    return found


def exhaustive_answer(start: Game, limit: int = EXHAUSTIVE_LIMIT) -> list[Move] | None:
    """The answer as the exhaustive search sees it: while the position has two legal moves or
    more and exactly one keeps a win, that move, up to MAX_STEPS, stopping after a move that
    turns up a card or wins. None when it could not decide."""
    game = start.copy()
    answer: list[Move] = []
    while len(answer) < MAX_STEPS and game.legal_moves.count() >= 2:
        found = winners(game, limit)
        if found is None:
            return None
        if len(found) != 1:
            break
        answer.append(found[0])
        played = game.play(found[0])
        if played.turned_up is not None or played.won:
            break
    return answer


def test_the_pinned_positions_hold_every_rule_that_has_small_puzzles() -> None:
    rules = {game.rule.letter for game, _ in pinned()}
    assert len(pinned()) >= 20
    assert {"C", "A"} <= rules


@pytest.mark.parametrize("index", range(len(pinned())))
def test_a_pinned_puzzles_answer_is_the_one_winning_move_of_an_exhaustive_search(
    index: int,
) -> None:
    game, move = pinned()[index]
    proof = prove(game, NODES)
    assert proof is not None, str(game)
    assert str(proof.solution[0]) == move
    assert exhaustive_answer(game) == proof.solution, str(game)


def test_random_small_positions_are_puzzles_exactly_when_the_exhaustive_search_says_so() -> None:
    """Mostly positions with two winning moves or none: the proof turns them all down."""
    compared = 0
    for rule in RULES.values():
        rng = random.Random(f"puzzle-proof-{rule.letter}")
        for n in range(SAMPLE):
            game = random_position(rule, rng, SHAPES[n % len(SHAPES)])
            if game is None:
                continue
            expected = exhaustive_answer(game, RANDOM_LIMIT)
            if expected is None:
                continue
            proof = prove(game, NODES)
            assert (proof.solution if proof is not None else []) == expected, str(game)
            compared += 1
    assert compared >= len(RULES) * SAMPLE * 2 // 3


def test_an_unknown_verdict_disqualifies_a_position() -> None:
    game, _ = pinned()[0]
    assert prove(game, node_budget=1) is None


def test_no_move_of_an_answer_but_the_last_turns_up_a_card() -> None:
    for game, _ in pinned():
        proof = prove(game, NODES)
        assert proof is not None
        board = game.copy()
        face_up = {card for column in board.columns for card in column.face_up}
        tops = {found.top for found in board.foundations if found.top is not None}
        for step, move in enumerate(proof.solution):
            assert move.card in face_up | tops, "the answer moves only cards the player sees"
            played = board.play(move)
            if step < len(proof.solution) - 1:
                assert played.turned_up is None


def test_some_pinned_answers_are_sequences() -> None:
    lengths = {len(proof.solution) for game, _ in pinned() if (proof := prove(game, NODES))}
    assert max(lengths) >= 2


def difficulty(legal: int, nodes: int, *, steps: int = 1, line_after: int = 10) -> int:
    move = Move.parse("KS>1")
    first = Step(move, legal, nodes)
    more = [Step(move, 2, 0)] * (steps - 1)
    return Proof((first, *more), line_after).difficulty


def test_difficulty_grows_with_the_wrong_moves_the_sequence_and_how_far_the_loss_lies() -> None:
    assert difficulty(2, 10) == 1  # one wrong move, lost at once
    assert difficulty(3, 10) == 2  # two wrong moves
    assert difficulty(5, 10) == 3  # four
    assert difficulty(2, 1_000) == 2  # a loss a few hundred positions deep
    assert difficulty(2, 50_000) == 3  # deeper still
    assert difficulty(2, 10, steps=3) == 3  # two more moves to find
    assert difficulty(2, 10, line_after=60) == 2  # a long way to the win after it
    assert difficulty(9, 90_000, steps=3, line_after=90) == 5  # capped


def test_plausible_moves_count_the_different_positions_a_move_leads_to() -> None:
    """Four empty columns take a King each in 4 ways (one choice each), and the lone KS moved
    to an empty column changes nothing: of 19 legal moves, 6 are choices (KH, KD or KC to an
    empty column, QH>3, QS>4, KS>F)."""
    game = Game.from_layout(
        [("", ""), ("", ""), ("", "KS"), ("5H", "KH"), ("6H 7H 8H 9H 10H JH", "QH")],
        [12, 4, 13, 13],
        rule=CLASSIC,
    )
    before = game.copy()
    assert game.legal_moves.count() == 19
    assert plausible_moves(game) == 6
    assert game == before
