"""`python -m benchmarks.solver_speed` runs (it reaches into the solver's internals, which
nothing else checks) and ends with the JSON figures the docs quote; with no compiled engine
(the suite also runs on the sources alone) it says how to build one."""

from __future__ import annotations

import json
import subprocess
import sys

import games.engine
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
    if not games.engine.compiled():
        assert done.returncode == 1 and "make install" in done.stdout, done.stdout + done.stderr
        return
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"compiled_nodes_per_s", "pure_nodes_per_s", "compiled_vs_pure"} <= figures.keys()
    assert figures["same_nodes_and_verdict"]["interpreted"] == 2


def test_the_schedules_benchmark_compares_schedules_on_the_same_deals() -> None:
    command = [sys.executable, "-m", "benchmarks.solver_schedules", "--deals", "3"]
    done = subprocess.run(
        [*command, "--nodes", "3000", "--schedule", "{}", "--schedule", '{"probe_nodes": 4096}'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert [row["schedule"] for row in figures["schedules"]] == [{}, {"probe_nodes": 4096}]
    assert all(0 <= row["decided"] <= 3 for row in figures["schedules"])
