"""Solver-backed assists: a hint (next move of a winning line) and "can this still be won?".

Both read the face-down cards, so both mark the game as assisted (ranked apart on
the daily board). The solver runs outside any row lock: moves are never blocked
behind a search, and the answer names the version it was computed for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth.models import User

from games import deals
from games.engine.solver import SolveResult, solve
from games.errors import GameFinished, GameNotFound, NotYourGame
from games.models import Game
from games.races.errors import NoAssistsInRaces

type Question = Literal["hint", "winnability"]

#: Player-facing wording of the solver's verdicts.
STATUS_OF_VERDICT = {
    "winnable": "winnable",
    "unwinnable": "no-longer-winnable",
    "unknown": "unknown",
}


@dataclass(frozen=True)
class Answer:
    version: int
    result: SolveResult
    question: Question

    def to_dict(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "version": self.version,
            "status": STATUS_OF_VERDICT[self.result.verdict],
            "reason": self.result.reason,
            "nodes": self.result.nodes,
            "seconds": round(self.result.seconds, 3),
        }
        if self.question == "hint":
            line = self.result.line
            answer["move"] = str(line[0]) if line else None
        return answer


def _owned_active_game(player: User, game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    if game.owner_id != player.pk:
        raise NotYourGame(f"Game {game_id} belongs to another player.")
    if game.is_finished:
        raise GameFinished(f"Game {game_id} is over: there is nothing left to win.")
    if game.race_hidden:
        raise NoAssistsInRaces(f"Game {game_id} is racing: hints and winnability are off.")
    return game


def ask(player: User, game_id: int, question: Question) -> Answer:
    """Solve the game's current position and mark the game as assisted."""
    game = _owned_active_game(player, game_id)
    result = solve(deals.current(game), time_budget=float(settings.SOLVER_ASSIST_SECONDS))
    Game.objects.filter(pk=game.pk).update(assisted=True)
    return Answer(game.version, result, question)
