"""Every API answer says where its client stands: RateLimit-Limit, -Remaining, -Reset."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from api.throttles import ApiThrottle, LoginThrottle, MoveThrottle
from tests.support.play import post

pytestmark = pytest.mark.django_db

HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


def standing(response: object) -> tuple[int, int, int]:
    return tuple(int(response[name]) for name in HEADERS)  # type: ignore[index,return-value]


def test_reads_count_against_the_general_limit(
    alice_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setattr(ApiThrottle, "THROTTLE_RATES", {"api": "5/min"})
    answers = [alice_api.get("/api/v1/games") for _ in range(6)]
    assert [standing(a)[:2] for a in answers[:5]] == [(5, 4), (5, 3), (5, 2), (5, 1), (5, 0)]
    assert all(0 < standing(a)[2] <= 60 for a in answers)
    assert answers[5].status_code == 429
    assert standing(answers[5])[1] == 0 and "Retry-After" in answers[5]


def test_moves_report_the_move_throttle(
    alice_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setattr(MoveThrottle, "THROTTLE_RATES", {"moves": "3/min"})
    game = post(alice_api, "/api/v1/games", {}).json()
    refused = post(alice_api, f"/api/v1/games/{game['id']}/undo", {"version": 0})
    assert refused.status_code == 422
    assert standing(refused)[:2] == (3, 2)


def test_login_reports_its_sliding_window(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    monkeypatch.setattr(LoginThrottle, "THROTTLE_RATES", {"login": "4/min"})
    body = {"username": "nobody", "password": "wrong"}
    first = post(APIClient(), "/api/v1/auth/login", body)
    second = post(APIClient(), "/api/v1/auth/login", body)
    assert first.status_code == second.status_code == 401
    assert (standing(first)[:2], standing(second)[:2]) == ((4, 3), (4, 2))
    assert 0 < standing(second)[2] <= 60


@pytest.mark.parametrize(
    ("path", "status"),
    [("/api/v1/nowhere", 404), ("/api/v1/auth/me", 401), ("/api/v1/daily", 200)],
)
def test_answers_before_any_throttle_carry_the_headers_too(path: str, status: int) -> None:
    cache.clear()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer yk_unknown")
    answer = client.get(path) if status != 200 else APIClient().get(path)
    assert answer.status_code == status
    limit, remaining, _ = standing(answer)
    assert remaining == limit - 1


def test_pages_outside_the_api_carry_none() -> None:
    assert "RateLimit-Limit" not in APIClient().get("/healthz")
