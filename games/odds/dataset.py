"""The published sample as a file in git: a gzipped CSV in the API's CSV columns.

`make run` loads it (`manage.py winnability_data load`), so a fresh clone publishes the same
odds; `manage.py winnability_data dump` writes it from the database after a run. Loading
upserts by (rule, deal, budget) and is skipped when the database already holds the file's
rows (same count and the same nodes in all, per rule).
"""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Count, Sum

from games.engine import Rule
from games.odds import keys
from games.odds.models import DealResult
from games.odds.summary import CSV_COLUMNS, csv_rows, sample

#: The committed file (not under the git-ignored data/ folder).
DATASET = Path(__file__).with_name("dataset") / "winnability.csv.gz"
#: The fields a row of the file sets (the other columns name the deal or follow from it).
FIELDS = {
    "verdict": str,
    "nodes": int,
    "line_length": int,
    "openings": int,
    "winning_openings": int,
    "losing_openings": int,
    "opening_nodes": int,
    "cpu_seconds": float,
    "solver": str,
}


def dump(path: Path = DATASET) -> int:
    """Write the published sample to `path` (the same bytes for the same rows); rows written."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    count = 0
    for row in csv_rows():
        writer.writerow(row)
        count += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as out:
        out.write(text.getvalue().encode())
    return count


def _value(column: str, text: str) -> Any:
    """A CSV cell as its field's value (an empty cell is null: a count a lost deal has not)."""
    if text == "" and column != "solver":
        return None
    return FIELDS[column](text)


def _rows(path: Path) -> list[dict[str, str]]:
    with gzip.open(path, "rt", newline="") as source:
        return list(csv.DictReader(source))


def _fingerprints(rows: Iterable[dict[str, str]]) -> dict[tuple[str, int], tuple[int, int]]:
    """(rule, budget) -> (rows, nodes in all): what tells a loaded file from an unloaded one."""
    found: dict[tuple[str, int], tuple[int, int]] = {}
    for row in rows:
        group = (row["rule"], int(row["node_budget"]))
        count, nodes = found.get(group, (0, 0))
        found[group] = (count + 1, nodes + int(row["nodes"]))
    return found


def _loaded(rows: list[dict[str, str]]) -> bool:
    for (letter, budget), expected in _fingerprints(rows).items():
        held = sample(Rule.from_letter(letter), budget).aggregate(n=Count("pk"), nodes=Sum("nodes"))
        if (held["n"], held["nodes"] or 0) != expected:
            return False
    return True


def load(path: Path = DATASET) -> int:
    """Upsert the file's rows as the development key's sample; rows written (0: already in)."""
    rows = _rows(path)
    if _loaded(rows):
        return 0
    fingerprint = keys.published()
    results = [
        DealResult(
            key=fingerprint,
            rule=row["rule"],
            number=int(row["number"]),
            node_budget=int(row["node_budget"]),
            sampled=True,
            **{column: _value(column, row[column]) for column in FIELDS},
        )
        for row in rows
    ]
    with transaction.atomic():
        DealResult.objects.bulk_create(
            results,
            batch_size=2000,
            update_conflicts=True,
            unique_fields=["key", "rule", "number", "node_budget"],
            update_fields=[*FIELDS, "sampled"],
        )
    return len(results)
