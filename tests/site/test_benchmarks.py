"""Every benchmark runs: a tiny run of each must finish and end with its JSON line of figures.

A benchmark is run by hand, rarely, so one broken by a change elsewhere goes unnoticed until
someone needs its figures (`benchmarks.request_cpu` once died on the socket's message rate
limit). The load benchmarks start their own cluster (scripts/cluster.py), hence the module
is slow. The benchmarks of `OWN_TESTS` have their tiny run in their area's tests;
`test_every_benchmark_has_its_tiny_run` keeps a new benchmark from arriving without one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest
from django.core.management import call_command

from tests.support import servers

#: Each benchmark's module, the arguments of a tiny run and a key its JSON line must hold.
TINY_RUNS = {
    "games.engine.bench": (["--seconds", "0.05"], "push_pop_pairs_per_s"),
    "benchmarks.analysis_unknowns": (
        ["--games", "1", "--moves", "5", "--before", "200", "--after", "400"],
        "after",
    ),
    "benchmarks.analysis_speed": (["--games", "1", "--moves", "5"], "games_per_core_minute"),
    "benchmarks.api_load": (
        ["--web", "1", "--clients", "2", "--duration", "1", "--warmup", "0.5"],
        "levels",
    ),
    # More moves on one socket than the socket's message burst: the run must lift it.
    "benchmarks.request_cpu": (["--moves", "80", "--rounds", "1"], "best_cpu_ms"),
    "benchmarks.backend_cpu": (
        ["--games", "1", "--moves", "10", "--idle", "0.5", "--layout", "asgi", "split"],
        "layouts",
    ),
    "benchmarks.players": (
        [
            *("--web", "1", "--players", "2", "--duration", "1", "--warmup", "0.5"),
            *("--think", "0.1", "--moves-over", "ws", "--ws-topology", "1x1"),
        ],
        "levels",
    ),
    # More spectators from this one address than a client may open sockets: the run lifts it.
    "benchmarks.push_latency": (["--spectators", "40", "--pushes", "3"], "target_met"),
    "benchmarks.races": (
        ["--races", "1", "--players", "2", "--moves", "2", "--pace", "0.1"],
        "target_met",
    ),
}


#: Benchmarks whose tiny run is in a test module of their own area (module -> that file).
OWN_TESTS = {
    "benchmarks.solver_speed": "tests/solver/test_speed_benchmark.py",
    "benchmarks.solver_schedules": "tests/solver/test_speed_benchmark.py",
    "benchmarks.solver_agreement": "tests/solver/test_c_search.py",
    "games.engine.solver_stats": "tests/solver/test_stats.py",
    "benchmarks.profile_charts": "tests/api/test_charts_benchmark.py",
    "benchmarks.board_speed": "tests/analysis/test_board_benchmark.py",
    "benchmarks.arena": "tests/arenas/test_benchmark_smoke.py",
    "benchmarks.arena_standings": "tests/arenas/test_standings_benchmark.py",
    "benchmarks.leaderboards": "tests/site/test_benchmarks.py",
}
#: Programs that are not benchmarks although they run as `python -m` (the engine's build).
NOT_BENCHMARKS = {"games.engine.build"}


def benchmark_modules() -> set[str]:
    """Every module of benchmarks/ and games/engine/ that runs as a program."""
    found = set()
    for folder in ("benchmarks", "games/engine"):
        for source in sorted((servers.ROOT / folder).glob("*.py")):
            if "__main__" in source.read_text():
                found.add(f"{folder.replace('/', '.')}.{source.stem}")
    return found - NOT_BENCHMARKS


def test_every_benchmark_has_its_tiny_run() -> None:
    untested = benchmark_modules() - TINY_RUNS.keys() - OWN_TESTS.keys()
    assert untested == set(), f"benchmarks with no tiny run in the suite: {sorted(untested)}"
    for module, test_file in OWN_TESTS.items():
        text = (servers.ROOT / test_file).read_text()
        assert re.search(rf"{re.escape(module)}\b", text), f"{test_file} does not run {module}"


def run_benchmark(module: str, arguments: list[str], env: dict[str, str] | None = None) -> Any:
    """Run `python -m module arguments --json`; its last line, parsed."""
    done = subprocess.run(
        [sys.executable, "-m", module, *arguments, "--json"],
        cwd=servers.ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", TINY_RUNS)
def test_the_benchmark_runs_tiny_and_ends_with_its_json_line(module: str) -> None:
    arguments, key = TINY_RUNS[module]
    assert key in run_benchmark(module, arguments)


@pytest.mark.django_db(transaction=True)
def test_the_leaderboards_benchmark_runs_on_a_tiny_seeded_site() -> None:
    call_command("seed_demo", players=10, games=60, days=2, verbosity=0)
    env = {**os.environ, "DATABASE_URL": servers.test_database_url()}
    figures = run_benchmark("benchmarks.leaderboards", ["--requests", "3", "--small-site"], env)
    assert figures["endpoints"] and "record_result" in figures
