"""The C search (games/engine/_search.c) against the reference search, position for position.

Both run in one process: ``solve(..., interpreted=True)`` runs ``solver_core.Search``
(the reference) where ``solve`` would run the C search. They must enter the same
positions (node counts), reach the same verdict and find the same line, and every
line must replay in the engine (each move legal by ``Game.play``) to a win. Positions
come from seeded hypothesis examples: a deal of each rule and some random legal moves.
The 1,000-deal comparison is ``python -m benchmarks.solver_agreement`` (docs/solver.md).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from games.engine import DEAL_COUNT, DEV_DEAL_KEY, RULES, Game, GameCode, native
from games.engine.solver import SolveResult, solve
from games.engine.solver_core import ENTRY_BYTES, table_entries
from tests.engine.both_engines import require_both_engines
from tests.solver.test_soundness import late_position
from tests.support.servers import ROOT

codes = st.builds(GameCode, st.sampled_from(list(RULES.values())), st.integers(0, DEAL_COUNT - 1))


def answer(result: SolveResult) -> tuple[str, list[str], str | None, int]:
    return result.verdict, [str(move) for move in result.line], result.reason, result.nodes


def random_position(code: GameCode, picks: list[int]) -> Game:
    """The deal after a legal move per pick (``pick % count`` of the legal moves)."""
    game = Game.new(code, DEV_DEAL_KEY)
    for pick in picks:
        moves = list(game.legal_moves)
        if game.won or not moves:
            break
        game.play(moves[pick % len(moves)])
    return game


def assert_same_search(game: Game, nodes: int) -> SolveResult:
    """The C search and the reference agree on ``game``; a winning line replays to a win."""
    ours = solve(game, node_budget=nodes)
    reference = solve(game, node_budget=nodes, interpreted=True)
    assert answer(ours) == answer(reference), game.layout()
    if ours.verdict == "winnable":
        replay = game.copy()
        for move in ours.line:
            replay.play(move)
        assert replay.won
    return ours


def test_the_c_search_runs_where_the_engine_is_compiled() -> None:
    if require_both_engines():
        assert native.search_core() is not None
        assert "C search" in native.status()
    else:
        assert native.search_core() is None  # YUKON_COMPILE=0: the reference search
    # The interpreted twin never runs it: it is the reference.
    assert native.pure("native").search_core() is None


@seed(39)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(codes, st.lists(st.integers(0, 2**16), max_size=40))
def test_the_c_search_enters_the_positions_of_the_reference(
    code: GameCode, picks: list[int]
) -> None:
    assert_same_search(random_position(code, picks), nodes=3_000)


def test_the_c_search_agrees_on_late_positions_with_take_backs() -> None:
    rng = random.Random(39)
    verdicts = {
        assert_same_search(late_position(rng, tuple(RULES.values())), 5_000).verdict
        for _ in range(30)
    }
    assert {"winnable", "unwinnable"} <= verdicts


def test_the_c_search_agrees_on_fixed_deals_with_probes() -> None:
    """Deals that outlast the first slice, so probes (random orders) run too."""
    rng = random.Random(7)
    results = [
        assert_same_search(Game.new(GameCode(rule, rng.randrange(DEAL_COUNT)), DEV_DEAL_KEY), 8_000)
        for rule in RULES.values()
        for _ in range(3)
    ]
    assert any(result.nodes > 4_096 for result in results)  # past the first probe


@pytest.mark.parametrize("code", ["YU1-C-HVKLTLR", "YU1-A-YCOGZKV"])
def test_the_c_search_agrees_while_its_table_doubles(code: str) -> None:
    """Past 49,152 positions the table (65,536 slots at first) doubles under the searches."""
    result = assert_same_search(Game.new(GameCode.parse(code), DEV_DEAL_KEY), 90_000)
    assert result.nodes > 65_536 * 3 // 4


def test_a_full_table_stops_the_c_search_as_a_memory_budget_and_never_the_reference() -> None:
    game = Game.new(GameCode.parse("YU1-C-HLSPBJF"), DEV_DEAL_KEY)  # unknown after millions
    reference = solve(game, memory_mb=1, node_budget=20_000, interpreted=True)
    assert (reference.verdict, reference.reason) == ("unknown", "node-budget")
    if not require_both_engines():
        return  # YUKON_COMPILE=0: the reference alone, checked above
    result = solve(game, memory_mb=1)
    assert (result.verdict, result.reason) == ("unknown", "memory-budget")
    assert result.nodes >= table_entries(1, None)


def test_the_table_is_sized_by_the_memory_bound_and_the_node_budget() -> None:
    assert table_entries(1024, None) == (1 << 23) * 3 // 4  # 8 Mi slots of 72 bytes
    # The largest table and the one before it (alive while it doubles) fit in the bound.
    assert (1 << 23) * ENTRY_BYTES * 3 // 2 <= 1024 << 20 < (1 << 24) * ENTRY_BYTES * 3 // 2
    assert table_entries(1024, 10_000) == 14_096


def test_the_agreement_script_compares_deals() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.solver_agreement", "--deals", "2", "--nodes", "500"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if not native.search_core():
        assert done.returncode == 1 and "make install" in done.stdout, done.stdout + done.stderr
        return
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["deals"] == 8 and figures["disagreements"] == 0


def test_the_site_hands_its_table_bound_to_the_engine(settings: Any) -> None:
    from games.engine import solver

    assert solver.table_memory() == settings.SOLVER_TABLE_MB  # games.apps, at start
    with pytest.raises(ValueError):
        solver.set_table_memory(0)
