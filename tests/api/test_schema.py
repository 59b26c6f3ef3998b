"""The OpenAPI document validates, its docs are served locally, and real answers match it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.support.play import token_client, winning_line
from tests.support.schema import assert_matches_schema, openapi


def test_the_schema_is_openapi_3_1_and_names_every_error_code() -> None:
    schema = openapi()
    assert schema["openapi"].startswith("3.1")
    assert "bearerToken" in schema["components"]["securitySchemes"]


@pytest.mark.django_db
def test_interactive_docs_use_local_static_files() -> None:
    page = APIClient().get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/" in page
    assert "cdn" not in page.lower()


DOCS = ["/api/schema/", "/api/docs/", "/api/redoc/"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOCS)
def test_the_docs_are_public_with_or_without_a_token(alice: User, path: str) -> None:
    """A token is no error on the public docs, whatever its scopes (it was a 500 on the
    pages and a 403 on the schema); only a browser's Accept decides the form."""
    _, narrow = ApiToken.issue(alice, "racer", ["race:play"])
    racer = APIClient()
    racer.credentials(HTTP_AUTHORIZATION=f"Bearer {narrow}")
    for client in (APIClient(), token_client(alice), racer):
        client.raise_request_exception = False
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.content[:200])


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOCS)
def test_an_unknown_token_on_the_docs_is_a_json_401(path: str) -> None:
    """As on every other public read (docs/api.md section 1): a dead token is told so."""
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION="Bearer yk_not-a-token")
    answer = client.get(path)
    assert answer.status_code == 401
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["error"]["code"] == "authentication-failed"
    assert answer["WWW-Authenticate"].startswith("Bearer")


class Recorder:
    """An API client that checks every answer against the schema as it goes."""

    def __init__(self, client: APIClient) -> None:
        self.client = client
        self.checked = 0

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        response = getattr(self.client, method)(path, body, format="json")
        data = response.json() if response.content else None
        assert_matches_schema(method, path, response.status_code, data)
        self.checked += 1
        return response.status_code, data


@pytest.mark.django_db
def test_answers_of_a_whole_session_match_the_schema(alice: User, bob: User) -> None:
    cache.clear()
    api = Recorder(token_client(alice))
    anonymous = Recorder(APIClient())
    code, line = winning_line()
    _, game = api.call("post", "/api/v1/games", {"code": code})
    gid = game["id"]
    api.call("post", f"/api/v1/games/{gid}/moves", {"move": line[0], "version": 0})
    api.call("post", f"/api/v1/games/{gid}/moves", {"move": line[1], "version": 0})  # 409
    api.call("post", f"/api/v1/games/{gid}/moves", {"move": "KS>9", "version": 1})  # 400
    api.call("post", f"/api/v1/games/{gid}/undo", {"version": 1})
    api.call("post", f"/api/v1/games/{gid}/undo", {"version": 2})
    api.call("post", f"/api/v1/games/{gid}/tap", {"card": "KS", "version": 2})  # 422
    api.call("post", f"/api/v1/games/{gid}/double-click", {"card": "KS", "version": 2})
    api.call("post", f"/api/v1/games/{gid}/winnability")
    for path in [
        f"/api/v1/games/{gid}",
        f"/api/v1/games/{gid}/log",
        "/api/v1/games",
        "/api/v1/games?status=active",
        "/api/v1/auth/me",
        "/api/v1/me/settings",
        "/api/v1/tokens",  # 403: token management needs the session
        "/api/v1/daily",
        "/api/v1/leaderboards",
        "/api/v1/leaderboards/wins?rule=C",
        "/api/v1/players/alice",
        "/api/v1/players/alice/history",
        "/api/v1/games/999999",
    ]:
        api.call("get", path)
    api.call("post", "/api/v1/tokens", {"name": "bot"})  # 403
    session = Recorder(APIClient())
    session.client.force_login(alice)
    _, token = session.call("post", "/api/v1/tokens", {"name": "bot"})
    session.call("get", "/api/v1/tokens")
    session.call("delete", f"/api/v1/tokens/{token['id']}")
    api.call("patch", "/api/v1/me/settings", {"double_click": False})
    Recorder(token_client(bob)).call("post", f"/api/v1/games/{gid}/undo", {"version": 3})
    anonymous.call("get", f"/api/v1/games/{gid}")
    anonymous.call("get", "/api/v1/games")
    anonymous.call("post", "/api/v1/auth/login", {"username": "alice", "password": "wrong"})
    api.call("post", f"/api/v1/games/{gid}/abandon", {"version": 3})
    assert api.checked + anonymous.checked + session.checked >= 28


@pytest.mark.parametrize("component", ["GameState", "GameSummary"])
def test_a_games_code_says_when_it_is_null(component: str) -> None:
    """Both secrets the public form keeps (games.fairness.visibility.hides_code) are named:
    a running daily deal's code and a running race's."""
    code = openapi()["components"]["schemas"][component]["properties"]["code"]
    assert "null" in code["type"]
    assert "daily" in code["description"]
    assert "race" in code["description"]
