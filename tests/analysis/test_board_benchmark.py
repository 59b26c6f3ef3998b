"""`python -m benchmarks.board_speed` runs (a tiny sample) and ends with the JSON figures
docs/performance.md quotes."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.servers import ROOT


def test_the_board_speed_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "-m", "benchmarks.board_speed", "--positions", "3"]
    done = subprocess.run(
        [*command, "--nodes", "300", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"cpu_s_p50", "cpu_s_p95", "cpu_s_max", "load_before", "engine"} <= figures.keys()
    assert figures["positions"] == 3 and figures["moves_judged"] > 0
