"""Which error codes the tests saw: every documented code must be produced by some test.

`record` wraps Django's test client (and so DRF's APIClient) for the session and
notes the `error.code` of every error answer. At the end of a run of the whole
suite, `unproduced` names the documented codes no test provoked; runs of a part
of the suite cannot tell, and do not check.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

from django.test import client as django_client

ROOT = Path(__file__).resolve().parents[2]
SEEN: set[str] = set()
#: Produced only by real failures the in-process client cannot cause (tests/robustness and
#: tests/deploy provoke them in real processes): a bug's 500, a lost database's 503, and
#: the fallback for an exception DRF adds later.
PRODUCED_ELSEWHERE = {"server-error", "database-unavailable", "bad-request"}
#: Engine refusals the rules cannot reach through the API today (tests/engine provokes them
#: on the engine): Yukon moves any face-up group, and no seven-character code lies outside
#: the deal numbers. Kept documented: a new rule may bring them.
ENGINE_ONLY = {"group-too-large", "code-number"}


def documented_codes() -> set[str]:
    """The codes of docs/api.md's error table (the backticked codes of its last column)."""
    text = (ROOT / "docs" / "api.md").read_text()
    table = text.split("## 4. When the server says no", 1)[1].split("\n\n**", 1)[0]
    codes: set[str] = set()
    for row in table.splitlines():
        if re.match(r"^\| \d{3} \|", row):
            cell = re.sub(r"\([^)]*\)", "", row.rsplit("|", 2)[1])  # not the remarks
            codes.update(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", cell))
    return codes


def record() -> None:
    original = django_client.Client.request

    def request(self: Any, **kwargs: Any) -> Any:
        response = original(self, **kwargs)
        if response.status_code >= 400 and "json" in response.get("Content-Type", ""):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                SEEN.add(json.loads(response.content)["error"]["code"])
        return response

    django_client.Client.request = request  # type: ignore[method-assign]


def unproduced() -> set[str]:
    return documented_codes() - SEEN - PRODUCED_ELSEWHERE - ENGINE_ONLY
