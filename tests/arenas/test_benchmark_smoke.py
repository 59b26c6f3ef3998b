"""The arena benchmark runs: a tiny level (three players, two moves a game) must finish with
its figures as the last line, games ended and shown on their players' sockets."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.servers import ROOT


def test_the_arena_benchmark_runs_tiny() -> None:
    command = [sys.executable, "-m", "benchmarks.arena", "--players", "3", "--seconds", "4"]
    command += ["--game-moves", "2", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    (level,) = figures["levels"]
    assert level["players"] == 3 and level["errors"] == 0, level["first_errors"]
    assert level["moves"] > 0 and level["finishes"] > 0
    assert {"move_p99_ms", "standings_push_p99_ms", "standings_lag_p99_ms"} <= set(level)
    assert len(figures["load"]) == 3
