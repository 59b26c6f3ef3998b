"""Helpers to drive games in tests: API clients for players and the known winning line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.engine import DEV_DEAL_KEY, Game, GameCode, Rule

WINNING_LINE_FILE = Path(__file__).resolve().parents[1] / "engine" / "data" / "winning_line.txt"
VARIANT_WINS_FILE = Path(__file__).resolve().parent / "variant_wins.txt"


def winning_line() -> tuple[str, list[str]]:
    """A Classic deal (dev deal key) and a move list that wins it with no take-back or undo."""
    lines = [line.strip() for line in WINNING_LINE_FILE.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def variant_winning_line(letter: str) -> tuple[str, list[str]]:
    """A deal of the rule `letter` (U Russian, A Alaska; dev deal key) and a line that wins it."""
    for line in VARIANT_WINS_FILE.read_text().splitlines():
        code, *moves = line.split()
        if code.startswith(f"YU1-{letter}-"):
            return code, moves
    raise LookupError(f"no winning line for rule {letter!r} in {VARIANT_WINS_FILE.name}")


def suit_only_refusal(rule: Rule) -> tuple[str, str]:
    """A deal of `rule` (dev deal key) and a move at its start refused only for the suits."""
    for number in range(1, 50):
        code = GameCode(rule, number)
        game = Game.new(code, DEV_DEAL_KEY)
        tops = [game.column(i).face_up[-1] for i in range(7)]
        for card_column in range(7):
            for card in game.column(card_column).face_up:
                for target_column, top in enumerate(tops):
                    if (
                        target_column != card_column
                        and rule.ranks_fit(card, top)
                        and not rule.suits_fit(card, top)
                    ):
                        return str(code), f"{card}>{target_column + 1}"
    raise AssertionError("no suit-only refusal in 49 deals")


def opening_where(rule: Rule, fits: Callable[[list[str]], bool], key: bytes = DEV_DEAL_KEY) -> str:
    """The code of the first deal of `rule` under `key` whose opening moves ("6S>1", "AH>F")
    `fits` accepts: for a test that needs a kind of move, a fixed choice checked to have it
    (a random deal may have none: 0.8 % of Russian deals offer no move onto a column)."""
    for number in range(1, 50):
        code = GameCode(rule, number)
        if fits([str(move) for move in Game.new(code, key).legal_moves]):
            return str(code)
    raise AssertionError(f"no {rule.name} deal among the first 49 fits")


def has_column_move(moves: list[str]) -> bool:
    return any(move.partition(">")[2].isdigit() for move in moves)


def column_move(moves: list[str]) -> tuple[str, int]:
    """The first of `moves` onto a column ("6S>1"): the card to drag and its column (1-7)."""
    for move in moves:
        card, _, target = move.partition(">")
        if target.isdigit():
            return card, int(target)
    raise AssertionError(f"no column move among {moves}")


def token_client(user: User) -> APIClient:
    """A third-party client authenticated with a fresh personal API token."""
    _, raw = ApiToken.issue(user, "tests")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def new_game(client: APIClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", body, format="json")
    assert response.status_code == 201, response.content
    return dict(response.json())


def post(client: APIClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, body, format="json")
