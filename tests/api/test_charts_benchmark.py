"""`benchmarks.profile_charts` runs, tiny, and gives every chart its figures."""

from __future__ import annotations

import pytest

from games.charts import CHARTS

pytestmark = pytest.mark.django_db


def test_the_profile_charts_benchmark_times_every_chart() -> None:
    from benchmarks import profile_charts  # sets Django up as a script; the suite already has

    figures = profile_charts.run(games=40, requests=3)
    assert figures["charts"].keys() == CHARTS.keys()
    assert all(
        row["fresh_p99_ms"] > 0 and row["cached_p99_ms"] > 0 for row in figures["charts"].values()
    )
    assert isinstance(figures["target_met"], bool)
