"""A fresh site is alive on day one: started from an empty database the way `make run` and
docker-compose's one-shot `migrate` job start it, with no further command, it has a daily
puzzle, a deck of public puzzles, the odds of Yukon and graded new games (issue 37)."""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from games.puzzles import stock
from games.puzzles.models import Puzzle
from games.puzzles.proof import PUBLIC_PLAUSIBLE
from tests.support.play import token_client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
#: The seed of the self-play deals here (a real start draws them unpredictably); checked
#: below to give the startup's puzzles.
SEED = "fresh-site"


def make_run_steps() -> list[list[str]]:
    """The `manage.py` commands `make run` runs before it starts the worker and the server."""
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe is not None
    steps = []
    for line in recipe.group(1).splitlines():
        step = re.fullmatch(r"\t\$\(VENV\)/python manage\.py ([\w -]+)", line)
        if step is not None:
            steps.append(step.group(1).split())
    return steps


def compose_job_steps() -> list[list[str]]:
    """The `manage.py` commands of docker-compose's one-shot `migrate` job."""
    spec = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    job = spec["services"]["migrate"]["command"][-1]
    return [shlex.split(step)[2:] for step in job.split(" && ")]


def test_make_run_and_the_compose_job_start_a_site_the_same_way() -> None:
    assert (
        make_run_steps()
        == compose_job_steps()
        == [
            ["migrate", "--noinput"],
            ["winnability_data", "load"],
            ["stock_puzzles"],
        ]
    )


def test_a_fresh_site_has_a_daily_puzzle_a_deck_the_odds_and_graded_games(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stock, "DEAL_SECONDS", math.inf)  # no cut that a busy machine moves
    assert not Puzzle.objects.exists()
    for name, *args in make_run_steps():
        if name == "stock_puzzles":  # seeded, and no time bound a busy machine would move
            args = [*args, "--seed", SEED, "--seconds", "3600"]
        call_command(name, *args)

    public = Puzzle.objects.filter(source=Puzzle.Source.SELF_PLAY)
    assert public.count() >= 5
    assert all(puzzle.plausible_moves >= PUBLIC_PLAUSIBLE for puzzle in public)
    anybody = APIClient()
    daily = anybody.get("/api/v1/puzzles/daily")
    assert daily.status_code == 200, daily.content
    assert len(daily.json()["puzzle"]["board"]["legal_moves"]) >= PUBLIC_PLAUSIBLE
    player = token_client(alice)
    assert player.get("/api/v1/puzzles/next").json()["reason"] == "new"
    odds = anybody.get("/api/v1/stats/winnability")
    assert odds.status_code == 200
    assert odds.json()
    graded = player.post("/api/v1/games", {"rule": "C", "difficulty": "easy"}, format="json")
    assert graded.status_code == 201, graded.content
