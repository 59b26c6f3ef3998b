"""The solver's verdicts: winning lines replay, proofs are exhaustive, budgets are honest."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from games.engine import (
    ALASKA,
    CLASSIC,
    DEAL_COUNT,
    DEV_DEAL_KEY,
    RELAXED,
    RUSSIAN,
    Game,
    GameCode,
    Move,
    Rule,
    private_form,
)
from games.engine.solver import SolveResult, rule_tables, solve
from games.engine.solver_core import PROBE_NODES, Search, probe_budget


def deal(number: int, rule: Rule = CLASSIC) -> Game:
    return Game.new(GameCode(rule, number), DEV_DEAL_KEY)


def replays_to_a_win(game: Game, result: SolveResult) -> bool:
    copy = game.copy()
    for move in result.line:
        copy.play(move)  # raises IllegalMoveError if the line is wrong
    return copy.won


def random_numbers(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(DEAL_COUNT) for _ in range(count)]


@pytest.mark.parametrize("rule", [CLASSIC, RELAXED, ALASKA], ids=["classic", "relaxed", "alaska"])
def test_every_winning_line_replays_to_a_win(rule: Rule) -> None:
    # A node budget, not a time budget: the count must not depend on the load.
    verdicts = []
    for number in random_numbers(12, seed=8):
        game = deal(number, rule)
        result = solve(game, node_budget=10_000)
        verdicts.append(result.verdict)
        if result.verdict == "winnable":
            assert replays_to_a_win(game, result)
        else:
            assert result.line == []
    assert verdicts.count("winnable") >= 6


def test_russian_wins_replay_and_most_deals_are_lost() -> None:
    # Russian deals are mostly lost (docs/solver.md); these two are won.
    for text in ("YU1-U-JBHXXLO", "YU1-U-CNIPHKT"):
        game = Game.new(GameCode.parse(text), DEV_DEAL_KEY)
        result = solve(game, node_budget=50_000)
        assert result.verdict == "winnable" and replays_to_a_win(game, result)
    verdicts = [solve(deal(n, RUSSIAN), node_budget=20_000).verdict for n in random_numbers(12, 8)]
    assert verdicts.count("unwinnable") >= 6


def test_lines_replay_from_positions_in_mid_game() -> None:
    rng = random.Random(3)
    checked = 0
    for number in random_numbers(10, seed=33):
        game = deal(number)
        for _ in range(rng.randrange(5, 40)):
            moves = list(game.legal_moves)
            if not moves or game.won:
                break
            game.play(rng.choice(moves))
        result = solve(game, time_budget=0.5)
        if result.verdict == "winnable":
            assert replays_to_a_win(game, result)
            checked += 1
    assert checked >= 3


def test_solving_leaves_the_game_unchanged() -> None:
    game = deal(12345)
    before = private_form(game)
    solve(game, node_budget=2000)
    assert private_form(game) == before


def test_a_private_form_is_accepted() -> None:
    game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
    assert solve(private_form(game)).verdict == "winnable"


def test_won_in_one_move() -> None:
    game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
    result = solve(game)
    assert result.verdict == "winnable"
    assert result.line == [Move.parse("KS>F")]


def test_a_won_game_is_winnable_with_an_empty_line() -> None:
    game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
    game.play(Move.parse("KS>F"))
    result = solve(game)
    assert (result.verdict, result.line) == ("winnable", [])


def every_card_but(*texts: str) -> str:
    from games.engine import CARDS

    used = set(texts)
    return " ".join(str(card) for card in CARDS if str(card) not in used)


def test_no_legal_move_left_is_unwinnable() -> None:
    # 51 face-down cards under a 5S: no move at all, not even for a King.
    game = Game.from_layout([(every_card_but("5S"), "5S")])
    assert not game.legal_moves
    result = solve(game)
    assert result.verdict == "unwinnable"
    assert result.reason is None


def test_moves_that_only_go_round_in_circles_are_unwinnable() -> None:
    # 7S can shuttle between 8H and 8D forever; nothing else ever moves.
    rest = every_card_but("8H", "8D", "7S").split()
    game = Game.from_layout([(" ".join(rest[:25]), "8H"), (" ".join(rest[25:]), "8D 7S")])
    assert {str(move) for move in game.legal_moves} == {"7S>1"}
    result = solve(game)
    assert result.verdict == "unwinnable"


def test_a_card_buried_under_both_its_places_is_a_dead_position() -> None:
    # 8H can leave its column only onto 9S or 9C (both under it) or to its
    # foundation (AH is under it too): the cards beneath never turn up.
    rest = every_card_but("AH", "9S", "9C", "8H").split()
    game = Game.from_layout(
        [("AH 9S 9C", "8H")]
        + [(" ".join(rest[i : i + 8]), rest[i + 8]) for i in range(0, 45, 9)]
        + [("", " ".join(rest[45:]))]
    )
    result = solve(game)
    assert result.verdict == "unwinnable"
    assert result.nodes <= 2


def test_a_win_that_needs_a_take_back() -> None:
    # AH lies under QH, whose only places (KS, KC) are on the foundations:
    # take KS back to the empty column, put QH on it, and the hearts run home.
    game = Game.from_layout(
        [("AH", "QH"), ("", ""), ("", "KH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")], [13, 0, 13, 13]
    )
    result = solve(game)
    assert result.verdict == "winnable"
    copy = game.copy()
    kinds = [copy.play(move).kind for move in result.line]
    assert copy.won
    assert "take-back" in kinds


def test_budgeted_and_unbudgeted_runs_agree() -> None:
    for number in random_numbers(8, seed=5):
        game = deal(number)
        full = solve(game, node_budget=40_000)
        if full.verdict == "unknown":
            continue
        budgeted = solve(game, node_budget=full.nodes + 10, time_budget=60.0)
        assert budgeted.verdict == full.verdict
        assert budgeted.line == full.line
        small = solve(game, node_budget=max(1, full.nodes // 2))
        assert small.verdict in (full.verdict, "unknown")


def test_an_exhausted_node_budget_says_so() -> None:
    numbers = random_numbers(50, seed=1)
    number = next(n for n in numbers if solve(deal(n), node_budget=500).verdict == "unknown")
    result = solve(deal(number), node_budget=500)
    assert (result.verdict, result.reason, result.line) == ("unknown", "node-budget", [])
    assert result.nodes == 500


def test_an_exhausted_time_budget_says_so() -> None:
    # Unknown after 6 million positions (performance.md): 0.01 s never decides it, even in C.
    game = Game.new(GameCode.parse("YU1-C-HLSPBJF"), DEV_DEAL_KEY)
    result = solve(game, time_budget=0.01)
    assert (result.verdict, result.reason) == ("unknown", "time-budget")


def test_the_time_budget_counts_on_the_clock_it_is_given() -> None:
    """A clock that advances a second each time it is read: five seconds are five reads."""
    numbers = random_numbers(50, seed=1)
    number = next(n for n in numbers if solve(deal(n), node_budget=500).verdict == "unknown")
    ticks = itertools.count()
    result = solve(deal(number), time_budget=5, clock=lambda: float(next(ticks)))
    assert (result.verdict, result.reason) == ("unknown", "time-budget")
    assert 5 < result.seconds < 10


@pytest.mark.parametrize(
    ("rule", "card", "need"),
    [
        (CLASSIC, 2 * 13 + 0, (0, 0, 0, 0)),  # AD: always safe
        (CLASSIC, 1 * 13 + 2, (2, 2, 1, 2)),  # 3H: black 2s home, and AD
        (CLASSIC, 0 * 13 + 1, (1, 1, 1, 0)),  # 2S: red aces home
        (RELAXED, 1 * 13 + 2, (2, 2, 2, 2)),  # 3H: every 2 home
        (RUSSIAN, 1 * 13 + 2, (0, 2, 0, 0)),  # 3H: only 2H goes on it, always safe
        (ALASKA, 1 * 13 + 2, None),  # 3H: 4H may need it, and so on up to KH
        (ALASKA, 1 * 13 + 12, (0, 12, 0, 0)),  # KH: only QH goes on it, always safe
    ],
)
def test_safe_autoplay_thresholds(rule: Rule, card: int, need: tuple[int, ...] | None) -> None:
    assert rule_tables(rule).safe_need[card] == need


def test_a_win_that_needs_two_take_backs_in_a_row() -> None:
    # 3C covers AC and 2C and fits only on a red 4, both of them home under
    # their 5s: a 5 must come back before its 4 can (the take-back normal form
    # lets one take-back wait for another, docs/solver.md).
    game = Game.from_layout(
        [
            ("2C AC", "3C"),
            ("", "KC QC JC 10C 9C 8C 7C 6C"),
            ("", "KS QS JS 10S 9S 8S 7S 6S 5S"),
            ("", "5C 4C"),
            ("", "KH QH JH 10H 9H 8H 7H 6H"),
        ],
        [4, 5, 13, 0],
    )
    result = solve(game)
    assert result.verdict == "winnable"
    copy = game.copy()
    kinds = [copy.play(move).kind for move in result.line]
    assert copy.won
    assert kinds.count("take-back") >= 2


def test_a_card_safe_to_send_home_is_never_taken_back() -> None:
    # 5H may go on a black 6; it is safe at home once both black 4s and 3D
    # are home, so taking it back then is left out (docs/solver.md).
    hearts = 13 + 4
    search = Search(rule_tables(CLASSIC), [[], [], [], [], [], [], []], [0] * 7, [4, 5, 3, 4])
    assert search.back_is_pointless(hearts)
    search = Search(rule_tables(CLASSIC), [[], [], [], [], [], [], []], [0] * 7, [3, 5, 3, 4])
    assert not search.back_is_pointless(hearts)


def test_probes_follow_the_luby_sequence() -> None:
    sizes = [probe_budget(k) // PROBE_NODES for k in range(1, 16)]
    assert sizes == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    # Every length comes up again and again, each twice as rarely as half of it.
    counts = Counter(probe_budget(k) // PROBE_NODES for k in range(1, 2**10))
    assert counts == {2**i: 2 ** (9 - i) for i in range(10)}
