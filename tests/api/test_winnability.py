"""`GET /api/v1/stats/winnability`: the published odds per rule, and the per-deal CSV."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from games.engine.solver_stats import wilson
from games.odds.summary import CSV_COLUMNS
from tests.support.odds import HARD, measured

pytestmark = pytest.mark.django_db

URL = "/api/v1/stats/winnability"


@pytest.fixture
def sample() -> None:
    measured(0)
    measured(1, **HARD)
    measured(2, "unwinnable")
    measured(3, "unknown")
    measured(0, rule="A")
    measured(9, sampled=False)  # a daily's grade: never published


def test_anyone_reads_each_rules_odds(sample: None) -> None:
    answer = APIClient().get(URL)

    assert answer.status_code == 200
    body = answer.json()
    assert (body["key"], body["node_budget"], body["csv"]) == (
        "development",
        500_000,
        f"{URL}?format=csv",
    )
    classic = body["rules"][0]
    assert {k: classic[k] for k in ("rule", "deals", "winnable", "unwinnable", "unknown")} == {
        "rule": "C",
        "deals": 4,
        "winnable": 2,
        "unwinnable": 1,
        "unknown": 1,
    }
    assert classic["range95"] == {"low": wilson(2, 4)[0], "high": wilson(3, 4)[1]}
    assert classic["bounds"] == {"low": 0.5, "high": 0.75}
    assert classic["grades"] == {"easy": 1, "medium": 0, "hard": 1}
    assert [entry["rule"] for entry in body["rules"]] == ["C", "R", "U", "A"]
    assert body["rules"][1]["deals"] == 0 and body["rules"][1]["range95"] is None


def test_a_rule_asked_for_answers_alone(sample: None) -> None:
    body = APIClient().get(URL, {"rule": "A"}).json()

    assert [entry["rule"] for entry in body["rules"]] == ["A"]
    assert body["rules"][0]["winnable"] == 1


def test_the_csv_has_a_row_per_deal_of_the_sample(sample: None) -> None:
    answer = APIClient().get(URL, {"format": "csv"})

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="yukon-winnability.csv"'
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0] == list(CSV_COLUMNS)
    table = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert [(row["rule"], row["number"], row["verdict"]) for row in table] == [
        ("A", "0", "winnable"),
        ("C", "0", "winnable"),
        ("C", "1", "winnable"),
        ("C", "2", "unwinnable"),
        ("C", "3", "unknown"),
    ]
    easy = table[1]
    assert (easy["code"], easy["nodes"], easy["line_length"], easy["grade"]) == (
        "YU1-C-AAAAAAA",
        "50",
        "95",
        "easy",
    )
    assert (table[3]["grade"], table[3]["line_length"], table[3]["node_budget"]) == (
        "",
        "",
        "500000",
    )


def test_the_csv_of_one_rule(sample: None) -> None:
    answer = APIClient().get(URL, {"format": "csv", "rule": "C"})

    assert answer["Content-Disposition"] == 'attachment; filename="yukon-winnability-C.csv"'
    assert len(answer.content.decode().splitlines()) == 1 + 4


def test_an_unknown_rule_is_a_400_in_json_even_for_the_csv() -> None:
    for query in ({"rule": "X"}, {"rule": "X", "format": "csv"}):
        answer = APIClient().get(URL, query)

        assert answer.status_code == 400
        assert answer["Content-Type"] == "application/json"
        error = answer.json()["error"]
        assert error["code"] == "invalid-request" and "rule" in error["fields"]


def test_an_unknown_format_is_a_400_naming_it() -> None:
    answer = APIClient().get(URL, {"format": "xml"})

    assert answer.status_code == 400
    assert answer.json()["error"]["fields"] == {"format": ['"xml" is not a valid choice.']}


def test_accept_text_csv_is_the_csv_download(sample: None) -> None:
    """The negotiated renderer decides: `Accept: text/csv` gets the rows, not the JSON
    object's keys spelled letter by letter."""
    answer = APIClient().get(URL, {"rule": "C"}, HTTP_ACCEPT="text/csv")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="yukon-winnability-C.csv"'
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0] == list(CSV_COLUMNS)
    assert len(rows) == 1 + 4
