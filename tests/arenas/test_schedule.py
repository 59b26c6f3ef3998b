"""The schedule: slots from the setting or the admin's override, made ahead once (a unique
slot), by the first list request; the deals in rising difficulty; a player's own arena."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as site_settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from games.arenas import schedule, sequence
from games.arenas.admin import ScheduleForm
from games.arenas.models import Arena, ScheduleOverride
from games.engine import GameCode
from games.odds.models import DealResult
from tests.support.arenas import T0, Clock
from tests.support.odds import HARD, measured
from tests.support.play import post
from tests.support.races import ok
from tests.support.servers import ROOT

#: Measures graded medium under Classic (between the easy and the hard thresholds).
MEDIUM: dict[str, Any] = dict(nodes=1_000, line_length=100, openings=8, winning_openings=8)


def graded_deals(rule: str = "C", each: int = 20) -> None:
    """Proven-winnable rows of every grade: numbers 1.. easy, 101.. medium, 201.. hard."""
    for start, measures in ((1, {}), (101, MEDIUM), (201, HARD)):
        for number in range(start, start + each):
            measured(number, rule=rule, **measures)


def test_the_default_schedule_runs_hourly_daily_and_weekly() -> None:
    entries = {entry.name: entry for entry in schedule.parse(site_settings.ARENA_SCHEDULE_DEFAULT)}

    hourly = list(entries["hourly"].slots(T0, T0 + timedelta(hours=4)))
    assert [start for start, _rule in hourly] == [T0 + timedelta(hours=h) for h in range(5)]
    assert len({rule for _start, rule in hourly[:4]}) == 4  # cycling through the four rules
    daily = list(entries["daily"].slots(T0, T0 + timedelta(days=2)))
    assert [(start.hour, rule) for start, rule in daily] == [(20, "C"), (20, "C")]
    weekly = list(entries["weekly"].slots(T0, T0 + timedelta(days=7)))
    assert [(start.weekday(), start.hour) for start, _rule in weekly] == [(5, 18)]


def test_an_arena_running_now_is_a_slot_too() -> None:
    entry = schedule.parse([{"name": "h", "every": "hour", "minutes": 30, "rules": ["C"]}])[0]

    starts = [
        start for start, _ in entry.slots(T0 + timedelta(minutes=29), T0 + timedelta(minutes=30))
    ]

    assert starts == [T0]


@pytest.mark.parametrize(
    "entries",
    [
        {"name": "x"},
        [{"name": "x", "every": "month", "minutes": 30, "rules": ["C"]}],
        [{"name": "x", "every": "hour", "minutes": 61, "rules": ["C"]}],
        [{"name": "x", "every": "hour", "minutes": 30, "rules": ["Z"]}],
        [{"name": "x", "every": "day", "minutes": 30, "offset_minutes": 1440, "rules": ["C"]}],
        [{"name": "a:b", "every": "hour", "minutes": 30, "rules": ["C"]}],
        [{"name": "x", "every": "hour", "minutes": 30, "rules": ["C"]}] * 2,
    ],
)
def test_a_schedule_that_cannot_be_read_is_refused(entries: Any) -> None:
    with pytest.raises(ValidationError):
        schedule.parse(entries)
    assert not ScheduleForm(data={"entries": json.dumps(entries)}).is_valid()


@pytest.mark.django_db
def test_listing_makes_the_schedules_arenas_once(
    clock: Clock, settings: Any, alice_api: APIClient
) -> None:
    graded_deals()
    settings.ARENA_SCHEDULE = [{"name": "h", "every": "hour", "minutes": 30, "rules": ["C"]}]
    settings.ARENA_CREATE_AHEAD_HOURS = 3
    clock.move(minutes=10)

    running = ok(alice_api.get("/api/v1/arenas", {"status": "running"}))
    upcoming = ok(alice_api.get("/api/v1/arenas", {"status": "upcoming"}))
    assert schedule.ensure_ahead(clock.now()) == 0  # all there: one query, nothing made

    assert [arena["starts_at"] for arena in running] == [T0.isoformat()]
    assert len(upcoming) == 3 and Arena.objects.count() == 4
    assert running[0]["codes"] is None and running[0]["deals"] == sequence.length_for(
        timedelta(minutes=30)
    )
    for arena in Arena.objects.all():  # every deal proven winnable, easy first, hard last
        numbers = [GameCode.parse(code).number for code in arena.deals]
        assert numbers[0] < 100 and numbers[-1] > 200
        assert numbers == sorted(numbers, key=lambda n: n // 100)
        assert len(set(numbers)) == len(numbers)


@pytest.mark.django_db
def test_the_admins_schedule_replaces_the_setting(clock: Clock) -> None:
    graded_deals(rule="A")
    ScheduleOverride.objects.create(
        entries=[
            {
                "name": "alaska",
                "every": "day",
                "offset_minutes": 1080,
                "minutes": 45,
                "rules": ["A"],
            }
        ]
    )

    schedule.ensure_ahead(clock.now())

    made = Arena.objects.get()
    assert (made.slot, made.rule, made.length) == (
        "alaska:2026-12-07T18:00Z",
        "A",
        timedelta(minutes=45),
    )


@pytest.mark.django_db
def test_a_rule_without_graded_deals_skips_its_slot(clock: Clock, settings: Any) -> None:
    settings.ARENA_SCHEDULE = [{"name": "h", "every": "hour", "minutes": 30, "rules": ["R"]}]

    schedule.ensure_ahead(clock.now())

    assert not Arena.objects.exists() and not DealResult.objects.exists()


@pytest.mark.django_db
def test_a_player_makes_a_private_arena_reached_by_its_link(
    clock: Clock, alice_api: APIClient, bob_api: APIClient
) -> None:
    graded_deals()

    made = ok(post(alice_api, "/api/v1/arenas", {"rule": "c", "minutes": 10, "private": True}), 201)

    assert made["private"] and len(made["id"]) == 24 and made["creator"] == "alice"
    assert made["status"] == "running" and made["minutes"] == 10 and made["deals"] == 10
    assert ok(bob_api.get(f"/api/v1/arenas/{made['id']}"))["name"] == ""
    ok(post(bob_api, f"/api/v1/arenas/{made['id']}/join", {}), 201)


@pytest.mark.django_db
def test_the_admin_saves_a_schedule_and_lists_arenas(clock: Clock) -> None:
    staff = User.objects.create_superuser("root", password="x" * 12)
    client = Client()
    client.force_login(staff)
    entries = [
        {"name": "quick", "every": "hour", "offset_minutes": 30, "minutes": 15, "rules": ["C"]}
    ]

    refused = client.post("/admin/arenas/scheduleoverride/add/", {"entries": '[{"name": "x"}]'})
    saved = client.post("/admin/arenas/scheduleoverride/add/", {"entries": json.dumps(entries)})

    assert refused.status_code == 200 and not ScheduleOverride.objects.filter(entries__0__name="x")
    assert saved.status_code == 302
    assert [entry.name for entry in schedule.current()] == ["quick"]
    assert client.get("/admin/arenas/arena/").status_code == 200


@pytest.mark.parametrize(
    ("value", "said"),
    [("nonsense", "ARENA_SCHEDULE is not JSON"), ('[{"name": "x"}]', "ARENA_SCHEDULE: Entry x")],
)
def test_a_schedule_setting_that_cannot_be_read_stops_start_up(value: str, said: str) -> None:
    env = {**os.environ, "ARENA_SCHEDULE": value, "DATABASE_URL": "postgresql://u@127.0.0.1:1/none"}
    started = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "yukon_site.settings"},
        capture_output=True,
        text=True,
        check=False,
    )

    assert started.returncode != 0
    assert f"ImproperlyConfigured: {said}" in started.stderr
