"""Secrecy checks: which cards are face down, and every string a JSON answer holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import read_private
from games.models import Game


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (keys too), with moves split at '>' into their parts."""
    if isinstance(value, str):
        yield value
        yield from value.split(">")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def face_down_cards(game_id: int) -> set[str]:
    """The game's face-down cards right now, from the private state (server side only)."""
    engine = read_private(Game.objects.get(pk=game_id).state)
    return {str(card) for column in engine.hidden_cards() for card in column}
