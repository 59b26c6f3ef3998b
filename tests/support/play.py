"""Helpers to drive games in tests: API clients for players and the known winning line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.models import ApiToken

WINNING_LINE_FILE = Path(__file__).resolve().parents[1] / "engine" / "data" / "winning_line.txt"


def winning_line() -> tuple[str, list[str]]:
    """A Classic deal (dev deal key) and a move list that wins it with no take-back or undo."""
    lines = [line.strip() for line in WINNING_LINE_FILE.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


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
