"""The solver against the real engine: every line replays, every verdict matches a plain search.

The plain search below knows nothing of the solver's reductions (no autoplay,
no take-back normal form, no dead-position check, no column symmetry, no
probes): it tries every legal move of the engine itself and
remembers the positions it has seen. On positions small enough for it to
finish, the solver's verdict must be the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import (
    ALASKA,
    CARDS,
    CLASSIC,
    DEAL_COUNT,
    DEV_DEAL_KEY,
    RELAXED,
    RULES,
    RUSSIAN,
    Game,
    GameCode,
    Rule,
)
from games.engine.records import ColumnView
from games.engine.solver import solve
from tests.support.exhaustive import exhaustively_winnable

#: Positions the plain search may enter before it gives up on an example.
PLAIN_LIMIT = 1500

rules: st.SearchStrategy[Rule] = st.sampled_from(list(RULES.values()))
#: The same-suit rules, searched apart so that each gets its share of examples.
SAME_SUIT_RULES = [RUSSIAN, ALASKA]


def position_key(game: Game) -> tuple[ColumnView, ...]:
    # Face-down cards never move, so the face-down counts say which are still
    # down; the foundations hold every card not in a column.
    return game.columns


def plainly_winnable(start: Game, limit: int = PLAIN_LIMIT) -> bool | None:
    """Exhaustive depth-first search over the engine's legal moves (None: gave up)."""
    return exhaustively_winnable(start, limit, position_key)


def near_end_position(rng: random.Random, rules: Sequence[Rule] = (CLASSIC, RELAXED)) -> Game:
    """The top 1-4 cards of each suit face down in 3 columns under one face-up card each.

    The rest is home. Crowded columns make lost positions common enough (a
    card buried under both its places and its foundation's next card).
    """
    rule = rng.choice(rules)
    left = [rng.randint(1, 4) for _ in range(4)]
    cards = [str(CARDS[s * 13 + 12 - r]) for s in range(4) for r in range(left[s])]
    rng.shuffle(cards)
    columns: list[list[str]] = [[card] for card in cards[:3]]
    for card in cards[3:]:
        columns[rng.randrange(3)].append(card)
    layout = [(" ".join(column[:-1]), column[-1]) for column in columns]
    return Game.from_layout(layout, [13 - n for n in left], rule=rule)


def late_position(rng: random.Random, rules: Sequence[Rule] = (CLASSIC, RELAXED)) -> Game:
    """The top 1-6 cards of each suit in 2-4 columns, some of them face down.

    With more cards left than :func:`near_end_position`, winning lines often
    take cards back from the foundations, which exercises the take-back
    reductions (the normal form, and that safe cards stay home).
    """
    rule = rng.choice(rules)
    left = [rng.randint(1, 6) for _ in range(4)]
    cards = [str(CARDS[s * 13 + 12 - r]) for s in range(4) for r in range(left[s])]
    rng.shuffle(cards)
    count = rng.randint(2, 4)
    columns: list[list[str]] = [[card] for card in cards[:count]]
    for card in cards[count:]:
        columns[rng.randrange(count)].append(card)
    layout = []
    for column in columns:
        hidden = rng.randint(0, len(column) - 1)
        layout.append((" ".join(column[:hidden]), " ".join(column[hidden:])))
    return Game.from_layout(layout, [13 - n for n in left], rule=rule)


def assert_solver_agrees(game: Game) -> None:
    """The solver's verdict is the plain search's, and a winning line replays."""
    plain = plainly_winnable(game)
    assume(plain is not None)
    result = solve(game)
    assert result.verdict == ("winnable" if plain else "unwinnable")
    if result.verdict == "winnable":
        copy = game.copy()
        for move in result.line:
            copy.play(move)
        assert copy.won


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.randoms(use_true_random=False))
def test_verdicts_match_a_plain_exhaustive_search(rng: random.Random) -> None:
    assert_solver_agrees(near_end_position(rng))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.randoms(use_true_random=False))
def test_verdicts_match_where_take_backs_matter(rng: random.Random) -> None:
    assert_solver_agrees(late_position(rng))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.randoms(use_true_random=False), st.booleans())
def test_verdicts_match_under_same_suit_rules(rng: random.Random, late: bool) -> None:
    make = late_position if late else near_end_position
    assert_solver_agrees(make(rng, SAME_SUIT_RULES))


@settings(max_examples=25, deadline=None)
@given(
    rules,
    st.integers(0, DEAL_COUNT - 1),
    st.lists(st.integers(0, 2**16), max_size=60),
)
def test_every_winning_line_replays_to_a_win(rule: Rule, number: int, choices: list[int]) -> None:
    game = Game.new(GameCode(rule, number), DEV_DEAL_KEY)
    for choice in choices:
        moves = list(game.legal_moves)
        if not moves or game.won:
            break
        game.play(moves[choice % len(moves)])
    result = solve(game, node_budget=4000)
    if result.verdict == "winnable":
        copy = game.copy()
        for move in result.line:
            copy.play(move)  # raises IllegalMoveError if a move is not legal
        assert copy.won
    else:
        assert result.line == []


def test_near_end_sample_holds_both_verdicts() -> None:
    # The comparison above means something only if lost positions it can
    # finish come up too.
    rng = random.Random(4)
    plain = [plainly_winnable(near_end_position(rng)) for _ in range(40)]
    assert plain.count(False) >= 1
    assert plain.count(True) >= 30
