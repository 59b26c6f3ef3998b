"""`python -m benchmarks.analysis_speed` runs, tiny (one careless game of three moves on its
own cluster), and ends with the JSON figures docs/performance.md quotes ("Analysis")."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.servers import ROOT


def test_the_analysis_speed_benchmark_prints_its_figures() -> None:
    command = ["-m", "benchmarks.analysis_speed", "--games", "1", "--moves", "3", "--json"]
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["games"] == 1
    assert {"turning_s_p99", "done_s_p99", "worker_cpu_s_p99"} <= figures.keys()
    assert sum(figures["turning"].values()) == 1
