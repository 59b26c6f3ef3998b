"""The migration that made public puzzles self-play only (`puzzles.0002_self_play_puzzles`):
what it does to the puzzles mined before it (docs/puzzles.md, "Existing puzzles")."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from games import days, services
from games.engine import read_private
from games.puzzles.models import DailyPuzzle, Puzzle, PuzzleCard
from games.puzzles.proof import plausible_moves
from tests.support.puzzles import pinned_positions, stored_puzzle

pytestmark = pytest.mark.django_db

MIGRATION = import_module("games.puzzles.migrations.0002_self_play_puzzles")


def test_game_puzzles_stay_in_their_owners_deck_alone_and_solver_deals_retire(
    alice: User, bob: User
) -> None:
    positions = pinned_positions()
    from_game = stored_puzzle(positions[0], game=services.start_game(alice), version=0)
    from_deal = stored_puzzle(positions[1])
    Puzzle.objects.filter(pk=from_deal.pk).update(source=Puzzle.Source.DEAL)
    public = stored_puzzle(positions[3])
    Puzzle.objects.update(plausible_moves=0)
    PuzzleCard.objects.create(player=alice, puzzle=from_game, own=True)
    for puzzle in (from_game, from_deal, public):
        PuzzleCard.objects.create(player=bob, puzzle=puzzle, own=False)
    yesterday = days.today() - timedelta(days=1)
    DailyPuzzle.objects.create(date=yesterday, puzzle=from_deal)
    DailyPuzzle.objects.create(date=days.today(), puzzle=from_game)

    MIGRATION.forward(apps, None)

    kept = set(PuzzleCard.objects.values_list("player__username", "puzzle_id"))
    assert kept == {("alice", from_game.pk), ("bob", public.pk)}
    assert list(DailyPuzzle.objects.values_list("date", "puzzle_id")) == [(yesterday, from_deal.pk)]
    for puzzle in Puzzle.objects.all():
        assert puzzle.plausible_moves == plausible_moves(read_private(puzzle.position)) >= 2
