"""The published sample's file in git: dumped byte for byte the same, loaded back whole, once."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import RULES
from games.odds import dataset
from games.odds.models import DealResult
from games.odds.summary import csv_rows, rule_odds
from tests.support.odds import HARD, measured

pytestmark = pytest.mark.django_db

COMPARED = (
    "rule",
    "number",
    "node_budget",
    "verdict",
    "nodes",
    "line_length",
    "openings",
    "winning_openings",
    "losing_openings",
    "opening_nodes",
    "cpu_seconds",
    "solver",
    "sampled",
)


def rows() -> list[tuple[object, ...]]:
    return list(DealResult.objects.order_by("rule", "number").values_list(*COMPARED))


def test_a_dump_loads_back_as_the_same_rows(tmp_path: Path) -> None:
    measured(0)
    measured(1, **HARD)
    measured(2, "unwinnable")
    measured(3, "unknown", rule="A")
    measured(4, sampled=False)  # not published: not dumped
    published = [row for row in rows() if row[1] != 4]
    path = tmp_path / "sample.csv.gz"

    assert dataset.dump(path) == 4
    first = path.read_bytes()
    assert dataset.dump(path) == 4 and path.read_bytes() == first  # the same bytes again
    DealResult.objects.all().delete()

    assert dataset.load(path) == 4
    assert rows() == published
    assert dataset.load(path) == 0  # already in


def test_the_command_loads_what_it_dumped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    measured(0)
    path = tmp_path / "sample.csv.gz"

    call_command("winnability_data", "dump", "--path", str(path))
    DealResult.objects.all().delete()
    call_command("winnability_data", "load", "--path", str(path))
    call_command("winnability_data", "load", "--path", str(path))

    out = capsys.readouterr().out.splitlines()
    assert out == [f"1 deals written to {path}", f"1 deals loaded from {path}", "sample up to date"]


def test_the_committed_sample_loads_and_is_what_is_published() -> None:
    loaded = dataset.load()

    assert loaded > 0
    assert sum(rule_odds(rule).deals for rule in RULES.values()) == loaded
    assert sum(1 for _ in csv_rows()) == loaded
