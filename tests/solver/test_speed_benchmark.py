"""`python -m benchmarks.solver_speed` runs (it reaches into the solver's internals, which
nothing else checks) and ends with the JSON figures the docs quote."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.servers import ROOT


def test_the_solver_speed_benchmark_prints_its_figures() -> None:
    command = [sys.executable, "-m", "benchmarks.solver_speed", "--deals", "1", "--nodes", "300"]
    done = subprocess.run(
        [*command, "--push-pop-seconds", "0.05", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"compiled_nodes_per_s", "pure_nodes_per_s", "compiled_vs_pure"} <= figures.keys()
    assert figures["same_nodes_and_verdict"]["interpreted"] == 2
