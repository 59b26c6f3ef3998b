"""Seed one player's charts (docs/api.md, "Charts"): games, dailies over a year, races and
puzzles, as rows only (no move logs), for the charts benchmark and the profile's browser test.

    manage.py seed_charts alice --games 10000 [--seed 41]
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from games import stats
from games.analysis.models import GameAnalysis
from games.days import today
from games.models import Game, Result
from games.puzzles.models import Puzzle, PuzzleAttempt
from games.races.models import Race, Racer

#: The deal every seeded row names: charts never read it.
CODE = "YU1-C-AAAAAAB"
RULES = ("C", "R")


def _game(player: User, rule: str, at: datetime, won: bool, **extra: Any) -> Game:
    moves = 80 + (at.minute % 60) if won else 20 + at.minute % 40
    return Game(
        owner=player,
        code=CODE,
        rule=rule,
        status=Game.Status.WON if won else Game.Status.ABANDONED,
        move_count=moves,
        cards_on_foundations=52 if won else at.minute % 30,
        state={},
        created_at=at - timedelta(minutes=10),
        finished_at=at,
        time_played=timedelta(seconds=200 + at.second * 7),
        **extra,
    )


def seed_profile(player: User, games: int, seed: int = 41) -> None:
    """`games` finished games of `player` over the year to today (a ranked daily per rule on
    most days, the rest ordinary), a race and a puzzle per ten games, and an analysis with a
    turning point for each lost game, and the statistics rebuilt from the results. The same
    `seed` gives the same rows."""
    rng = random.Random(seed)
    end = datetime.combine(today(), time(), tzinfo=UTC)  # today's dailies stay out
    rows: list[Game] = []
    day = today() - timedelta(days=1)
    while len(rows) < games and day > today() - timedelta(days=365):
        for rule in RULES:
            if rng.random() < 0.8:
                at = datetime.combine(day, time(12, rng.randrange(60), rng.randrange(60)), UTC)
                won = rng.random() < 0.5
                assisted = won and rng.random() < 0.2
                rows.append(
                    _game(player, rule, at, won, daily_date=day, ranked=True, assisted=assisted)
                )
        day -= timedelta(days=1)
    while len(rows) < games:
        at = end - timedelta(seconds=rng.randrange(365 * 86400))
        rows.append(_game(player, rng.choice(RULES), at, rng.random() < 0.4))
    with transaction.atomic():
        saved = Game.objects.bulk_create(rows[:games])
        Result.objects.bulk_create(
            Result(
                game=game,
                player=player,
                rule=game.rule,
                won=game.status == Game.Status.WON,
                moves=game.move_count,
                duration=game.time_played,
                score=game.cards_on_foundations * 10,
                cards_on_foundations=game.cards_on_foundations,
                assisted=game.assisted,
                finished_at=finished,
            )
            for game in saved
            if (finished := game.finished_at) is not None
        )
        GameAnalysis.objects.bulk_create(
            GameAnalysis(
                game=game,
                status=GameAnalysis.Status.DONE,
                node_budget=1000,
                turning="lost",
                losing_version=max(1, game.move_count - rng.randrange(1, 15)),
            )
            for game in saved
            if game.status != Game.Status.WON
        )
        for rule in RULES:
            stats.rebuild(player.pk, rule)
        _seed_races(player, games // 10, end, rng)
        _seed_puzzles(player, games // 10, end, rng)


def _seed_races(player: User, count: int, end: datetime, rng: random.Random) -> None:
    rating, sigma = 0.0, 8.333
    racers = []
    for index in range(count):
        at = end - timedelta(hours=(count - index) * 20)
        race = Race.objects.create(
            room=f"{player.pk % 1000:03d}{index:05d}",
            rule=RULES[index % 2],
            code=CODE,
            creator=player,
            status=Race.Status.FINISHED,
            created_at=at,
            finished_at=at,
        )
        place = rng.randrange(1, 5)
        before, rating = rating, rating + (2.5 - place) * sigma / 8
        sigma = max(1.0, sigma * 0.97)
        racers.append(
            Racer(
                race=race,
                player=player,
                seat=1,
                active=False,
                state=Racer.State.FINISHED,
                place=place,
                rating_before=before,
                rating_after=rating,
                sigma_after=sigma,
                finished_at=at,
            )
        )
    Racer.objects.bulk_create(racers)


def _seed_puzzles(player: User, count: int, end: datetime, rng: random.Random) -> None:
    puzzles = Puzzle.objects.bulk_create(
        Puzzle(
            position={},
            position_key=f"charts-{player.pk}-{index}",
            rule="C",
            solution=[],
            legal_moves=3,
            plausible_moves=3,
            face_down=0,
            refutation_nodes=0,
            line_after=0,
            difficulty=1 + index % 5,
            source=Puzzle.Source.SELF_PLAY,
            code=CODE,
            mu=25.0,
            sigma=8.333,
            rating=0.0,
        )
        for index in range(count)
    )
    rating, sigma, attempts = 0.0, 8.333, []
    for index, puzzle in enumerate(puzzles):
        solved = rng.random() < 0.6
        before, rating = rating, rating + (1.5 if solved else -1.0) * sigma / 8
        sigma = max(1.0, sigma * 0.98)
        attempts.append(
            PuzzleAttempt(
                player=player,
                puzzle=puzzle,
                moves=[],
                correct=solved,
                rated=True,
                rating_before=before,
                rating_after=rating,
                sigma_after=sigma,
                created_at=end - timedelta(hours=(count - index) * 30),
            )
        )
    PuzzleAttempt.objects.bulk_create(attempts)


class Command(BaseCommand):
    help = __doc__.splitlines()[0] if __doc__ else ""

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("--games", type=int, default=10000)
        parser.add_argument("--seed", type=int, default=41)

    def handle(self, *args: Any, **options: Any) -> None:
        player, _ = User.objects.get_or_create(username=options["username"])
        seed_profile(player, options["games"], options["seed"])
        self.stdout.write(f"seeded {options['games']} games for {player.get_username()}")
