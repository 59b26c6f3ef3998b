"""Finish: from any position with every card face up, the line home is legal, wins, scores as
by hand, and never walks in circles; a face-down card, or a blocked table, gives none."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARDS, DEV_DEAL_KEY, FOUNDATION, RULES, Game, GameCode, Rule
from games.engine.finish import FINISH_NODE_BUDGET, every_card_face_up, finishing_line
from games.engine.solver import solve


@st.composite
def face_up_positions(draw: st.DrawFn) -> Game:
    """Any rule, any foundations, the other cards dealt face up into the 7 columns at random."""
    rule = draw(st.sampled_from(list(RULES.values())))
    foundations = draw(st.lists(st.integers(0, 13), min_size=4, max_size=4))
    left = [card for card in CARDS if card.rank > foundations[card.suit]]
    left = draw(st.permutations(left))
    cuts = sorted(draw(st.lists(st.integers(0, len(left)), min_size=6, max_size=6)))
    bounds = [0, *cuts, len(left)]
    columns = [("", " ".join(map(str, left[a:b]))) for a, b in itertools.pairwise(bounds)]
    return Game.from_layout(columns, foundations, rule=rule)


@settings(max_examples=60, deadline=None)
@given(face_up_positions())
def test_a_finishing_line_is_legal_wins_and_scores_as_by_hand(game: Game) -> None:
    line = finishing_line(game)
    if line is None:  # blocked, or no win within the finish's budget
        assert solve(game, node_budget=FINISH_NODE_BUDGET).verdict != "winnable"
        return
    board = game.copy()
    seen = {board.state_key()}
    earned = home = 0
    for move in line:
        result = board.play(move)  # the checked path: every move legal by the rules
        earned += result.score_delta
        home += {"foundation": 1, "take-back": -1}.get(result.kind, 0)
        assert board.state_key() not in seen  # no detour comes back to a position
        seen.add(board.state_key())
    assert board.won
    assert board.move_count == game.move_count + len(line)
    # As by hand: 10 points for each card put up (again after a take-back), none to turn up.
    assert board.score == game.score + earned
    assert home == 52 - game.cards_on_foundations
    put_up = sum(1 for move in line if move.to == FOUNDATION)
    assert earned == 10 * put_up


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(RULES.values())), st.integers(0, 10_000))
def test_no_line_while_a_card_is_face_down(rule: Rule, number: int) -> None:
    game = Game.new(GameCode(rule, number), DEV_DEAL_KEY)
    assert not every_card_face_up(game)
    with pytest.raises(ValueError, match="face down"):
        finishing_line(game)


def test_a_blocked_table_has_no_finishing_line() -> None:
    """Every card face up, and not one move: the Aces lie under the Kings of no empty column."""
    game = Game.from_layout(
        [("", "AS KC"), ("", "QC 2S"), ("", "3S 4S"), ("", "5S 6S"), ("", "7S 8S"),
         ("", "9S 10S"), ("", "JS QS KS")],
        [0, 13, 13, 11],
    )  # fmt: skip
    assert every_card_face_up(game) and not game.legal_moves
    assert finishing_line(game) is None


def test_the_line_is_the_same_on_every_server() -> None:
    """A node budget, not a time budget: the same position always gets the same line."""
    game = Game.from_layout([("", "KS QH"), ("", "KH"), ("", "QS")], [11, 11, 13, 13])
    first = finishing_line(game)
    assert first is not None and first == finishing_line(game)
