"""Arena standings from PostgreSQL alone, on the server's side: what one push interval costs
at 200, 500 and 1,000 players (docs/arenas.md "Live standings").

    python -m benchmarks.arena_standings [--players 200 500 1000] [--reads 50] [--json]

Seeds (again, each run) an arena with that many seated players (`arena_bench_<n>`, scores
from a seeded random choice) in the configured PostgreSQL, then times, per level:

- `read`: the feed's read once the standings moved (`api.realtime.arena_feed.read_picture`:
  the settle check, the version, then every seat in one query: the ranked table and each
  player's own part), wall time and this process's CPU time;
- `views`: this process's CPU time to build and encode every socket's view from one read
  (a player's each: the top 10, their rank and neighbours), as one websocket process holding
  every player's socket does once per interval;
- `rest`: `GET /api/v1/arenas/<id>/standings` as a seated player, in process through the
  whole Django stack (token auth, view, JSON), like `benchmarks.leaderboards`.

The end-to-end arena benchmark (simulated players moving, sockets open) is
`benchmarks.arena`; this one isolates what the choice of PostgreSQL alone costs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import secrets
import statistics
import time
from datetime import timedelta
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from api.realtime.arena_feed import read_picture  # noqa: E402
from benchmarks.harness import emit_json, print_table  # noqa: E402
from benchmarks.leaderboards import get, measure, percentile  # noqa: E402
from games.arenas.models import Arena, Seat  # noqa: E402

PREFIX = "arena_bench_"


def seeded(players: int) -> tuple[Arena, list[User]]:
    """A running arena with `players` seats (a previous run's go with their accounts)."""
    User.objects.filter(username__startswith=PREFIX).delete()
    Arena.objects.filter(name="benchmark").delete()
    now = timezone.now()
    arena = Arena.objects.create(
        kind=Arena.Kind.PLAYER,
        name="benchmark",
        rule="C",
        starts_at=now - timedelta(minutes=10),
        ends_at=now + timedelta(hours=1),
        token=secrets.token_urlsafe(18),
        deals=["YU1-C-AAAAAAB"] * 10,
    )
    users = User.objects.bulk_create(User(username=f"{PREFIX}{n}") for n in range(players))
    choose = random.Random(players)
    Seat.objects.bulk_create(
        Seat(
            arena=arena,
            player=user,
            points=choose.randrange(30),
            wins=choose.randrange(8),
            in_a_row=choose.randrange(4),
            games_ended=choose.randrange(10),
            time=timedelta(seconds=choose.randrange(3_000)),
        )
        for user in users
    )
    return arena, list(User.objects.filter(username__startswith=PREFIX))


def level(players: int, reads: int) -> dict[str, Any]:
    arena, users = seeded(players)
    ids = [user.pk for user in users]
    wall: list[float] = []
    cpu: list[float] = []
    picture = None
    for _ in range(reads):
        started, started_cpu = time.perf_counter(), time.process_time()
        picture = read_picture(arena.pk, None)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    assert picture is not None and len(picture.table.rows) == players
    started_cpu = time.process_time()
    for player_id in ids:
        json.dumps(picture.message(player_id))
    views_cpu = (time.process_time() - started_cpu) * 1000
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(users[0], 'bench')[1]}")
    rest = measure(get(client, f"/api/v1/arenas/{arena.pk}/standings"), reads, warmup=3)
    User.objects.filter(username__startswith=PREFIX).delete()
    arena.delete()
    return {
        "players": players,
        "read_p50_ms": round(statistics.median(wall), 2),
        "read_p99_ms": round(percentile(wall, 0.99), 2),
        "read_cpu_ms": round(statistics.median(cpu), 2),
        "views_cpu_ms": round(views_cpu, 2),
        "rest_p50_ms": round(statistics.median(rest), 2),
        "rest_p99_ms": round(percentile(rest, 0.99), 2),
    }


def run(players: list[int], reads: int) -> dict[str, Any]:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("ops.access").setLevel(logging.WARNING)  # one line per request otherwise
    load_before = os.getloadavg()
    levels = [level(count, reads) for count in players]
    return {
        "reads": reads,
        "levels": levels,
        "load_before": [round(value, 2) for value in load_before],
        "load_after": [round(value, 2) for value in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[200, 500, 1000])
    parser.add_argument("--reads", type=int, default=50, help="timed reads and requests a level")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args()
    figures = run(args.players, args.reads)
    print_table(
        [
            "players",
            "read p50 ms",
            "read p99 ms",
            "read cpu ms",
            "views cpu ms",
            "rest p50 ms",
            "rest p99 ms",
        ],
        [
            [
                row["players"],
                row["read_p50_ms"],
                row["read_p99_ms"],
                row["read_cpu_ms"],
                row["views_cpu_ms"],
                row["rest_p50_ms"],
                row["rest_p99_ms"],
            ]
            for row in figures["levels"]
        ],
    )
    print(f"\nload average before {figures['load_before']}, after {figures['load_after']}")
    emit_json(args.json, figures)


if __name__ == "__main__":
    main()
