"""Closing an account: the one path for a player who leaves and for an idle guest's purge.

What others see stays as they saw it: a race's results keep the player's row, renamed
`deleted-player-…` (accounts.closing). Everything else of theirs goes: their other games
(so every daily ranking and leaderboard), statistics, race and puzzle ratings, puzzle
progress, tokens, OAuth grants and sessions. A game still in play (a race, a ranked daily
attempt, any other) first ends as a resignation, as if its player had resigned it.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from accounts import closing
from games import services
from games.models import DataExport, Game, PlayerStats
from games.puzzles.models import PuzzleAttempt, PuzzleCard, PuzzlePlayer
from games.races import queue, rooms
from games.races.models import Race, Racer, RaceRating


def close(user: User) -> None:
    """Close `user`'s account. A race counting down refuses (`RaceCountingDown`: leave
    once it runs), before anything changed."""
    waiting = Racer.objects.filter(
        player=user, active=True, race__status__in=[Race.Status.OPEN, Race.Status.COUNTDOWN]
    )
    for room in waiting.values_list("race__room", flat=True):
        rooms.leave(user, room)
    queue.cancel(user)
    in_play = Game.objects.filter(owner=user, status=Game.Status.ACTIVE)
    for game_id, version in in_play.values_list("pk", "version"):
        services.resign(user, game_id, version=version)
    with transaction.atomic():
        # A race still running when they leave rates nobody by a deleted account.
        Racer.objects.filter(player=user).exclude(race__status=Race.Status.FINISHED).update(
            guest=True
        )
        Game.objects.filter(owner=user, raced=False).delete()
        DataExport.objects.filter(owner=user).delete()
        for model in (PlayerStats, RaceRating, PuzzlePlayer, PuzzleCard, PuzzleAttempt):
            model.objects.filter(player=user).delete()
        closing.revoke_credentials(user)
        closing.remove(user, keep_row=Racer.objects.filter(player=user).exists())
