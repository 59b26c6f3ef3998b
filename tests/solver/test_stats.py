"""``python -m games.engine.solver_stats``: its figures and their JSON line."""

from __future__ import annotations

import json

import pytest

from games.engine.solver_stats import main


def test_figures_include_nodes_per_second_and_the_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["3", "--budget", "2", "--nodes", "3000", "--seed", "5", "--json", "-v"]) == 0
    out = capsys.readouterr().out.splitlines()
    figures = json.loads(out[-1])
    per_deal = [line for line in out if line.startswith("YU1-C-")]
    assert len(per_deal) == 3
    assert all(line.endswith("nodes/s") for line in per_deal)
    assert figures["deals"] == 3
    assert figures["clock"] == "wall"
    assert figures["nodes_per_second"] > 0
    assert len(figures["load_average_start"]) == len(figures["load_average_end"]) == 3
    assert any(line.startswith("nodes per second ") for line in out)
    # Each verdict's row of the table ends with its nodes per second.
    rows = {line.split()[0]: line.split() for line in out if line.split()[:1] == ["decided"]}
    assert rows["decided"][-1] == str(figures["decided"]["nodes_per_second"])
    total = sum(figures[v]["count"] for v in ("winnable", "unwinnable", "unknown"))
    assert total == 3


@pytest.mark.parametrize("letter", ["U", "A"])
def test_each_variant_can_be_measured(letter: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["2", "--nodes", "2000", "--seed", "5", "--rule", letter, "--json", "-v"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[-1])["rule"] == letter
    assert sum(line.startswith(f"YU1-{letter}-") for line in out) == 2


def test_the_budget_can_be_cpu_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["2", "--budget", "2", "--nodes", "2000", "--clock", "cpu", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[-1])["clock"] == "cpu"
    assert "budget 2 s of CPU" in out[0]
