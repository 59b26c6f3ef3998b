"""Scopes: every endpoint and feed declares one; tokens are held to theirs; old ones keep theirs."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.permissions import AllowAny
from rest_framework.test import APIClient
from rest_framework.views import APIView

from accounts.models import ApiToken
from accounts.scopes import PUBLIC, SCOPES, Needed, scope_for
from api.realtime.consumers import PushConsumer
from api.realtime.routing import websocket_urlpatterns
from tests.support.play import new_game
from tests.support.schema import openapi

migration = importlib.import_module("accounts.migrations.0003_token_scopes")

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def api_views() -> Iterator[tuple[str, type[APIView]]]:
    """Every DRF view routed under /api/v1/ (whoever wrote it), with its route."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, Any]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.callback

    for route, callback in walk(get_resolver().url_patterns, "/"):
        view = getattr(callback, "cls", None)
        if route.startswith("/api/v1/") and isinstance(view, type) and issubclass(view, APIView):
            yield route, view


def declared_methods(view: type[APIView]) -> list[str]:
    return [method.upper() for method in HTTP_METHODS if hasattr(view, method)]


def known(scope: Needed | None) -> bool:
    """A scope, PUBLIC, or alternatives that are all scopes."""
    if isinstance(scope, tuple):
        return len(scope) > 1 and all(name in SCOPES for name in scope)
    return scope in (*SCOPES, PUBLIC)


def alternatives(scope: Needed | None) -> list[str]:
    """The scopes any one of which will do, as the schema lists them (PUBLIC: none)."""
    if scope == PUBLIC or scope is None:
        return []
    return [scope] if isinstance(scope, str) else list(scope)


def test_every_api_view_declares_a_known_scope_for_each_method() -> None:
    views = list(api_views())
    assert len(views) >= 30
    for route, view in views:
        assert "required_scope" in vars(view), f"{view.__name__} ({route}) declares no scope"
        for method in declared_methods(view):
            scope = scope_for(view.required_scope, method)  # type: ignore[attr-defined]
            assert known(scope), f"{view.__name__} {method}: scope {scope!r}"
            if scope == PUBLIC:
                assert AllowAny in view.permission_classes, f"{view.__name__} is not public"


def test_every_websocket_feed_declares_a_known_scope() -> None:
    for pattern in websocket_urlpatterns:
        consumer = pattern.callback.consumer_class  # type: ignore[union-attr]
        assert issubclass(consumer, PushConsumer)
        scope = scope_for(consumer.required_scope, "GET")
        assert known(scope) and scope != PUBLIC, consumer


def test_the_schema_names_each_operations_scope() -> None:
    """Each operation's OAuth2 and personal-token requirements list the view's own scope."""
    schema = openapi()
    flow = schema["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert set(flow["scopes"]) == set(SCOPES)
    views = {re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route): view for route, view in api_views()}
    checked = 0
    for path, operations in schema["paths"].items():
        view = views.get(path)
        assert view is not None or not path.startswith("/api/v1/"), path
        for method, operation in operations.items():
            granted: dict[str, list[str]] = {}
            for requirement in operation["security"]:
                for scheme, scopes in requirement.items():
                    granted.setdefault(scheme, []).extend(scopes)
            if view is None or "oauth2" not in granted:  # token management: the session only
                continue
            expected = scope_for(view.required_scope, method)  # type: ignore[attr-defined]
            wanted = alternatives(expected)
            assert granted["oauth2"] == granted["bearerToken"] == wanted, (method, path)
            checked += 1
    assert checked >= 25


@pytest.fixture
def limited(alice: User) -> APIClient:
    """A personal token holding game:read only."""
    _, raw = ApiToken.issue(alice, "reader", ["game:read"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


@pytest.mark.django_db
def test_a_token_is_refused_what_its_scopes_lack_and_told_which(
    limited: APIClient, alice_api: APIClient
) -> None:
    game = new_game(alice_api)
    assert limited.get(f"/api/v1/games/{game['id']}").status_code == 200
    assert limited.get("/api/v1/games").status_code == 200
    for method, path, scope in [
        ("post", "/api/v1/games", "game:play"),
        ("post", f"/api/v1/games/{game['id']}/hint", "game:play"),
        ("get", "/api/v1/auth/me", "account:read"),
        ("patch", "/api/v1/me/settings", "account:write"),
        ("post", "/api/v1/auth/logout", "account:write"),
    ]:
        answer = getattr(limited, method)(path, {}, format="json")
        assert answer.status_code == 403, (method, path)
        assert answer.json()["error"]["code"] == "missing-scope"
        assert answer.json()["error"]["scope"] == scope


@pytest.mark.django_db
def test_a_token_is_made_with_the_scopes_asked_for(alice: User) -> None:
    session = APIClient()
    session.force_login(alice)
    made = session.post("/api/v1/tokens", {"name": "r", "scopes": ["game:read"]}, format="json")
    assert made.status_code == 201
    assert made.json()["scopes"] == ["game:read"]
    everything = session.post("/api/v1/tokens", {"name": "all"}, format="json").json()
    assert everything["scopes"] == list(SCOPES)
    bad = session.post("/api/v1/tokens", {"name": "x", "scopes": ["root"]}, format="json")
    assert bad.status_code == 400 and "scopes" in bad.json()["error"]["fields"]


@pytest.mark.django_db
def test_tokens_made_before_scopes_keep_what_they_could_do(alice: User) -> None:
    old, raw = ApiToken.issue(alice, "from before", [])
    assert ApiToken.objects.get(pk=old.pk).scopes == ""
    migration.grant_what_they_had(apps, None)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    game = new_game(client)
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 200
    assert client.get("/api/v1/auth/me").status_code == 200
    assert client.patch("/api/v1/me/settings", {}, format="json").status_code == 200
    assert client.get("/api/v1/tokens").json()["error"]["code"] == "session-required"
    # Exactly the scopes there were then: a later scope (`arena:play`) is never granted silently.
    assert ApiToken.objects.get(pk=old.pk).scope_set == set(migration.SCOPES_BEFORE.split())
    assert set(SCOPES) - set(migration.SCOPES_BEFORE.split()) == {"arena:play"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/tokens"),
        ("post", "/api/v1/tokens"),
        ("get", "/api/v1/oauth/apps"),
        ("post", "/api/v1/oauth/apps"),
        ("post", "/api/v1/auth/upgrade"),
    ],
)
def test_a_token_without_account_write_on_a_session_only_operation_is_told_session_required(
    alice: User, method: str, path: str
) -> None:
    """`account:write` would not help there: the answer names what would."""
    _, raw = ApiToken.issue(alice, "reader", ["game:read"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    response = getattr(client, method)(path, {}, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["error"]["code"] == "session-required"
