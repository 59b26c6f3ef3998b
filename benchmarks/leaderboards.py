"""Leaderboard, daily-ranking and statistics speed on seeded data: p50/p99 per endpoint.

    manage.py seed_demo --players 1000 --games 100000   # once
    python -m benchmarks.leaderboards [--requests 300] [--small-site] [--json]

Requests run in process through the whole Django stack (middleware, auth,
views, JSON) against the configured PostgreSQL, without an HTTP server in
front, so the figures are the server's handling time. Signed-in requests use a
demo player's API token, which adds the `me` row. Recording a result is
measured as the database time (sum of statement times) of abandoning a game:
the game update, the result row and the statistics row, each committed.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from games import services  # noqa: E402
from games.models import DailyDeal, PlayerStats  # noqa: E402

TARGET_P99_MS = 30.0
TARGET_RECORD_DB_MS = 5.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(call: Callable[[], Any], count: int, warmup: int = 10) -> list[float]:
    for _ in range(warmup):
        call()
    timings = []
    for _ in range(count):
        started = time.perf_counter()
        call()
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def get(client: APIClient, path: str) -> Callable[[], Any]:
    def call() -> Any:
        response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path}: HTTP {response.status_code} {response.content[:200]!r}")
        return response

    return call


@contextmanager
def database_time() -> Iterator[list[float]]:
    """Collect each statement's time (ms) on the default connection."""
    spent: list[float] = []

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent.append((time.perf_counter() - started) * 1000)

    with connection.execute_wrapper(wrapper):
        yield spent


def record_result_timings(count: int) -> tuple[list[float], list[float]]:
    """DB time and wall time of abandon (which writes the result and the stats) per game."""
    player, _ = User.objects.get_or_create(username="bench_recorder")
    db_ms, wall_ms = [], []
    for index in range(count + 5):
        game = services.start_game(player, rule="C")
        started = time.perf_counter()
        with database_time() as spent:
            services.resign(player, game.pk, version=game.version)
        if index >= 5:
            wall_ms.append((time.perf_counter() - started) * 1000)
            db_ms.append(sum(spent))
    return db_ms, wall_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="timed requests per endpoint")
    parser.add_argument(
        "--small-site",
        action="store_true",
        help="ask the first pages where a run on seed_demo's default data asks deep ones",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("ops.access").setLevel(logging.WARNING)  # one line per request otherwise
    busiest = PlayerStats.objects.filter(rule="C").order_by("-games").select_related("player")
    top = busiest.first()
    if top is None or not DailyDeal.objects.exists():
        raise SystemExit("No seeded data: run `manage.py seed_demo` first.")
    middle = busiest[busiest.count() // 2]
    wins_page, daily_page, history_page = (1, 1, 1) if args.small_site else (10, 5, 3)
    day = DailyDeal.objects.order_by("-date").values_list("date", flat=True)[1]
    public = APIClient()
    signed_in = APIClient()
    signed_in.credentials(
        HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(middle.player, 'benchmark')[1]}"
    )
    name = top.player.get_username()
    endpoints: dict[str, Callable[[], Any]] = {
        **{
            f"leaderboards/{board}": get(public, f"/api/v1/leaderboards/{board}?rule=C")
            for board in ("wins", "win-rate", "fastest", "fewest-moves", "daily-streak")
        },
        f"leaderboards/wins page {wins_page} + me": get(
            signed_in, f"/api/v1/leaderboards/wins?page={wins_page}"
        ),
        "leaderboards/fastest rule R": get(public, "/api/v1/leaderboards/fastest?rule=R"),
        f"daily/{day}": get(public, f"/api/v1/daily/{day}"),
        f"daily/{day} page {daily_page} + me": get(
            signed_in, f"/api/v1/daily/{day}?page={daily_page}"
        ),
        "daily (today, signed in)": get(signed_in, "/api/v1/daily"),
        f"players/{name}": get(public, f"/api/v1/players/{name}"),
        f"players/{name}/history": get(public, f"/api/v1/players/{name}/history?rule=C"),
        f"players/{name}/history p{history_page}": get(
            public, f"/api/v1/players/{name}/history?rule=C&page={history_page}"
        ),
    }
    figures: dict[str, Any] = {"requests_per_endpoint": args.requests, "endpoints": {}}
    print(f"{'endpoint':<48} {'p50 ms':>8} {'p99 ms':>8}")
    for label, call in endpoints.items():
        timings = measure(call, args.requests)
        p50, p99 = statistics.median(timings), percentile(timings, 0.99)
        figures["endpoints"][label] = {"p50_ms": round(p50, 2), "p99_ms": round(p99, 2)}
        print(f"{label:<48} {p50:8.2f} {p99:8.2f}")
    db_ms, wall_ms = record_result_timings(max(20, args.requests // 3))
    record = {
        "db_p50_ms": round(statistics.median(db_ms), 3),
        "db_p99_ms": round(percentile(db_ms, 0.99), 3),
        "wall_p50_ms": round(statistics.median(wall_ms), 3),
    }
    figures["record_result"] = record
    worst = max(v["p99_ms"] for v in figures["endpoints"].values())
    figures["worst_endpoint_p99_ms"] = worst
    figures["targets_met"] = worst < TARGET_P99_MS and record["db_p99_ms"] < TARGET_RECORD_DB_MS
    print(
        f"\nrecording a result (abandon: game, result, stats): database time "
        f"p50 {record['db_p50_ms']:.2f} ms, p99 {record['db_p99_ms']:.2f} ms "
        f"(wall p50 {record['wall_p50_ms']:.2f} ms)"
    )
    print(
        f"worst endpoint p99 {worst:.2f} ms (target < {TARGET_P99_MS:.0f}); "
        f"targets met: {figures['targets_met']}"
    )
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
