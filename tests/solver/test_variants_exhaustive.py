"""The solver's verdicts against a brute-force search, for every rule (Russian and Alaska too).

The brute force below is independent of the solver: a depth-first search over
the engine's public move generator (``Game.legal_moves``, ``push``/``pop``)
that remembers every position it has entered. Its only reduction is column
order (a position is remembered by its columns as a multiset): no rule refers
to a column's place, so permuted columns have permuted futures. It knows none
of the solver's other reductions (safe autoplay, take-back normal form,
dead-position check, probes), so one that is wrong for a rule (same-suit
building; building up and down, where a card has two places and moves can
cycle) shows up as a verdict that differs on some small position.
"""

from __future__ import annotations

import random

import pytest

from games.engine import ALASKA, CARDS, RULES, RUSSIAN, Game, Rule, private_form
from games.engine.solver import solve
from tests.support.exhaustive import exhaustively_winnable

#: Positions the brute force may enter before giving up on a position.
BRUTE_LIMIT = 4000
#: Small positions tried per rule (those the brute force cannot finish are skipped).
SAMPLE = 40


def position_key(game: Game) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The columns as a multiset of (face-down count, cards); the foundations follow."""
    columns, down, _ = game.state_key()
    return tuple(sorted(zip(down, columns, strict=True)))


def brute_force_winnable(start: Game, limit: int = BRUTE_LIMIT) -> bool | None:
    """Whether some sequence of legal moves wins (None: more than ``limit`` positions)."""
    return exhaustively_winnable(start, limit, position_key)


def small_position(rule: Rule, rng: random.Random) -> Game:
    """The top 1-5 cards of each suit in 2 or 3 columns, face down under one face-up card.

    The rest is home. Crowded columns make lost positions common (a card
    buried under its places and its foundation's next card); the low
    foundations make take-backs possible.
    """
    left = [rng.randint(1, 5) for _ in range(4)]
    cards = [str(CARDS[s * 13 + 12 - r]) for s in range(4) for r in range(left[s])]
    rng.shuffle(cards)
    count = rng.choice((2, 2, 3))
    columns: list[list[str]] = [[card] for card in cards[:count]]
    for card in cards[count:]:
        columns[rng.randrange(count)].append(card)
    layout = [(" ".join(column[:-1]), column[-1]) for column in columns]
    return Game.from_layout(layout, [13 - n for n in left], rule=rule)


#: Relaxed is left to test_soundness.py: its small positions are rarely lost
#: and take the brute force long.
CHECKED = [rule for rule in RULES.values() if rule.match != "any"]


@pytest.mark.parametrize("rule", CHECKED, ids=[rule.name for rule in CHECKED])
def test_verdicts_match_a_brute_force_search(rule: Rule) -> None:
    rng = random.Random(f"variants-{rule.letter}")
    verdicts: list[bool] = []
    for _ in range(SAMPLE):
        game = small_position(rule, rng)
        plain = brute_force_winnable(game)
        if plain is None:
            continue
        result = solve(game)
        assert result.verdict == ("winnable" if plain else "unwinnable"), private_form(game)
        if plain:
            copy = game.copy()
            for move in result.line:
                copy.play(move)  # raises IllegalMoveError on an illegal move
            assert copy.won
        verdicts.append(plain)
    # The comparison means something only if both verdicts come up often enough.
    assert len(verdicts) >= SAMPLE * 3 // 4
    assert verdicts.count(True) >= 5 and verdicts.count(False) >= 5, verdicts


def test_alaska_keeps_a_card_its_next_higher_card_may_need() -> None:
    """Building up, 10♠ is the only place for J♠ (under Q♥) to leave Q♠ and the hearts.

    Sending 10♠ home as soon as it can go, as Russian may, would lose this
    position: the solver's autoplay follows each rule's own safety condition.
    """
    layout = [("", "10S"), ("KH JH QS", "JS QH"), ("", "KS")]
    game = Game.from_layout(layout, [9, 10, 13, 13], rule=ALASKA)
    assert brute_force_winnable(game) is True
    assert solve(game).verdict == "winnable"
    russian = Game.from_layout(layout, [9, 10, 13, 13], rule=RUSSIAN)  # J♠ cannot go on 10♠
    assert brute_force_winnable(russian) is False
    assert solve(russian).verdict == "unwinnable"
