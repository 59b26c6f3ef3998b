"""What a game's reader may ask the solver, told before they ask: GET /games/{id} answers the
help rule's verdict beside the state, so a client never asks for (nor warns about) help the
server would refuse. Per reader, so never pushed: the websocket's states are everyone's."""

from __future__ import annotations

from typing import TypedDict

from django.contrib.auth.models import AnonymousUser, User

from games.fairness import solver_help as help_rule
from games.models import Game
from games.public import GameState, game_state


class HelpOffer(TypedDict):
    """Whether a hint, winnability or analysis asked now would be given; if not, the refusal's
    code and sentence."""

    available: bool
    refusal: str | None
    message: str | None


class ViewedState(GameState):
    """The public state as one reader asks for it: with the help they may ask on it."""

    help: HelpOffer


def help_offer(viewer: User | AnonymousUser, game: Game) -> HelpOffer:
    """The help rule's own answer for `viewer` on `game`."""
    try:
        help_rule.ensure_help_allowed(viewer, game)
    except help_rule.DealInPlay as refusal:
        return {"available": False, "refusal": refusal.code, "message": str(refusal.message)}
    return {"available": True, "refusal": None, "message": None}


def viewed_state(game: Game, viewer: User | AnonymousUser) -> ViewedState:
    return {**game_state(game), "help": help_offer(viewer, game)}
