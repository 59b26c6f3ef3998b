"""`benchmarks.arena_standings` runs, tiny, and gives each level its figures."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_arena_standings_benchmark_times_each_level() -> None:
    from benchmarks import arena_standings  # sets Django up as a script; the suite already has

    figures = arena_standings.run(players=[3, 5], reads=2)

    assert [row["players"] for row in figures["levels"]] == [3, 5]
    assert all(row["read_p99_ms"] > 0 and row["rest_p99_ms"] > 0 for row in figures["levels"])
    assert len(figures["load_before"]) == 3
