"""Games for the analysis tests: seeded random legal moves through the services."""

from __future__ import annotations

import random

from django.contrib.auth.models import User

from games import deals, services
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.engine.solver import solve
from games.models import Game
from tests.support.play import winning_line


def random_play(player: User, seed: int, moves: int = 40) -> tuple[Game, EngineGame]:
    """A game of the winning-line deal with `moves` seeded random legal moves, still active."""
    code, _ = winning_line()
    chooser = random.Random(seed)
    game = services.start_game(player, code=code)
    engine = deals.new_game(GameCode.parse(code))
    for _ in range(moves):
        legal = sorted(engine.legal_moves, key=str)
        if not legal:
            break
        move = chooser.choice(legal)
        engine.play(move)
        game = services.play_move(player, game.pk, move=str(move), version=game.version).game
    return game, engine


def abandoned(player: User, game: Game) -> Game:
    return services.resign(player, game.pk, version=game.version).game


def losing_game(player: User, budget: int = 5_000) -> Game:
    """A random game still being played whose position the solver proves lost (the random
    games tried before it are resigned)."""
    for seed in range(40):
        game, engine = random_play(player, seed)
        if solve(engine, node_budget=budget).verdict == "unwinnable":
            return game
        abandoned(player, game)
    raise AssertionError("no random game of 40 seeds lost its deal")


def lost_game(player: User, budget: int = 5_000) -> Game:
    """An abandoned random game whose last position the solver proves lost."""
    return abandoned(player, losing_game(player, budget))
