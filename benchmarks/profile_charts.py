"""Profile charts speed (issue 41): p50/p99 of each chart of a player with 10,000 games.

    python -m benchmarks.profile_charts [--games 10000] [--requests 200] [--json]

Seeds (again, each run) the player `charts_bench` with `manage.py seed_charts`'s rows in
the configured PostgreSQL, then times `GET /api/v1/players/charts_bench/charts/<chart>`
in process through the whole Django stack (middleware, token auth, view, JSON), like
`benchmarks.leaderboards`. "fresh" is the player asking for their own charts, which are
read from the database every time; "cached" is another viewer, served from the cache
after the first ask. The target is a fresh p99 under 50 ms.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from benchmarks.harness import emit_json, print_table  # noqa: E402
from benchmarks.leaderboards import get, measure, percentile  # noqa: E402
from games.charts import CHARTS  # noqa: E402
from games.management.commands.seed_charts import seed_profile  # noqa: E402

TARGET_P99_MS = 50.0
PLAYER = "charts_bench"


def seeded(games: int) -> User:
    """`PLAYER` afresh with `games` games (a previous run's rows go with the old account)."""
    User.objects.filter(username=PLAYER).delete()
    player = User.objects.create_user(PLAYER)
    seed_profile(player, games)
    return player


def run(games: int, requests: int) -> dict[str, Any]:
    """Seed, time every chart fresh and cached, and return the figures."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("ops.access").setLevel(logging.WARNING)  # one line per request otherwise
    player = seeded(games)
    own = APIClient()
    own.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(player, 'benchmark')[1]}")
    other = APIClient()  # a fresh account: nothing of it is cached yet
    figures: dict[str, Any] = {"games": games, "requests_per_endpoint": requests, "charts": {}}
    for name in CHARTS:
        path = f"/api/v1/players/{PLAYER}/charts/{name}"
        row: dict[str, float] = {}
        for label, client in (("fresh", own), ("cached", other)):
            timings = measure(get(client, path), requests, warmup=min(10, requests))
            row[f"{label}_p50_ms"] = round(statistics.median(timings), 2)
            row[f"{label}_p99_ms"] = round(percentile(timings, 0.99), 2)
        figures["charts"][name] = row
    worst = max(row["fresh_p99_ms"] for row in figures["charts"].values())
    figures["worst_fresh_p99_ms"] = worst
    figures["target_met"] = worst < TARGET_P99_MS
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10000, help="the seeded player's games")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per chart")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    figures = run(args.games, args.requests)
    print_table(
        ["chart", "fresh p50 ms", "fresh p99 ms", "cached p50 ms", "cached p99 ms"],
        [
            [
                name,
                row["fresh_p50_ms"],
                row["fresh_p99_ms"],
                row["cached_p50_ms"],
                row["cached_p99_ms"],
            ]
            for name, row in figures["charts"].items()
        ],
    )
    print(
        f"\n{figures['games']} games; worst fresh p99 {figures['worst_fresh_p99_ms']:.2f} ms "
        f"(target < {TARGET_P99_MS:.0f}); target met: {figures['target_met']}"
    )
    emit_json(args.json, figures)


if __name__ == "__main__":
    main()
