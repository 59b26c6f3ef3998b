"""A deal's measures: its verdict and line, and how many opening moves keep the win."""

from __future__ import annotations

from games.engine import CLASSIC, DEV_DEAL_KEY, RUSSIAN, Game, GameCode, Rule
from games.engine.solver import solve
from games.odds.measures import measure


def deal(rule: Rule, number: int) -> Game:
    return Game.new(GameCode(rule, number), DEV_DEAL_KEY)


def test_a_won_deal_counts_the_openings_that_keep_the_win_and_those_that_lose() -> None:
    game = deal(CLASSIC, 47)

    found = measure(game, 20_000)

    assert found.verdict == "winnable"
    assert found.line_length == len(solve(game, node_budget=20_000).line)
    assert found.openings == len(list(game.legal_moves)) == 4
    verdicts = []
    for move in game.legal_moves:
        after = game.copy()
        after.play(move)
        verdicts.append(solve(after, node_budget=2_000).verdict)
    assert (
        (found.winning_openings, found.losing_openings)
        == (
            verdicts.count("winnable"),
            verdicts.count("unwinnable"),
        )
        == (3, 1)
    )


def test_the_lines_first_move_keeps_the_win_without_a_solve() -> None:
    found = measure(deal(RUSSIAN, 0), 20_000)  # one legal opening: the line's first move

    assert (found.openings, found.winning_openings, found.opening_nodes) == (1, 1, 0)


def test_a_lost_deal_has_no_line_and_no_opening_measures() -> None:
    found = measure(deal(RUSSIAN, 1), 20_000)

    assert found.verdict == "unwinnable"
    assert (found.line_length, found.openings, found.winning_openings) == (None, None, None)
    assert found.nodes == 1
