"""Hostile input never gets a 500: every operation of the published schema, fed a corpus of bad
requests, answers a JSON error with a code and a message (or a valid 2xx), anonymous and signed in
by token and by session; and every stored game still replays to its snapshot.

Where an operation's first permission is IsAuthenticated, a signed-out request is refused
by DRF's permission check before any parser reads its query or body, so the anonymous client
sends such an operation its plain request, the hostile paths and the unknown methods only
(the bodies and queries reach the parsers through the token and session clients).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import Resolver404, resolve
from django.utils import timezone
from rest_framework.permissions import IsAuthenticated
from rest_framework.test import APIClient
from rest_framework.views import APIView

from accounts.models import ApiToken, SignedInSession
from games import days
from games.analysis.models import BoardPosition
from games.models import Game
from tests.support.arenas import arena_on_known_deals
from tests.support.play import new_game, token_client
from tests.support.puzzles import seeded

DEEP = 1_500
THREE_MB = 3 * 1024 * 1024

#: Path parameter values: NUL, lone surrogates and broken UTF-8, huge, negative, wrong types.
HOSTILE_PATH_VALUES = [
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%FF%FE",
    "-1",
    "0",
    "99999999999999999999",
    "1e3",
    "abc",
    "%20",
    "..",
    "x" * 5_000,
]
HOSTILE_QUERY_VALUES = ["%00", "%ED%A0%80", "-1", "0", "99999999999999999999", "x" * 5_000, "[]"]
#: JSON values put in each body field (raw JSON text, so lone surrogates stay escapes).
HOSTILE_FIELD_VALUES = [
    r'"\ud800"',
    r'"a\udfffb"',
    r'"\u0000"',
    r'"a\u0000b"',
    "1" + "0" * 30,
    "-1" + "0" * 30,
    "-1",
    "1e400",
    "-1e400",
    "0.5",
    "true",
    "null",
    "[]",
    "{}",
    '"' + "x" * 100_000 + '"',
    "[" * DEEP + "]" * DEEP,
]
UNKNOWN_METHODS = ["PROPFIND", "FOO", "PUT", "TRACE"]


@dataclass(frozen=True)
class Probe:
    method: str
    path: str
    body: bytes = b""
    content_type: str = "application/json"

    def __str__(self) -> str:
        return f"{self.method} {self.path[:120]} {self.content_type} {self.body[:80]!r}"


def whole_bodies() -> list[tuple[bytes, str]]:
    """Bodies that are wrong as a whole: nesting, encoding, size, types and content types."""
    return [
        (b"[" * DEEP + b"]" * DEEP, "application/json"),
        (b'{"a":' * DEEP + b"1" + b"}" * DEEP, "application/json"),
        (b'{"\\ud800": 1}', "application/json"),
        (b'["\\ud800"]', "application/json"),
        (b'"\\udc00"', "application/json"),
        (b"\xed\xa0\x80", "application/json"),
        (b"\xff\xfe\x00", "application/json"),
        (b'{"version": 0}', "application/json; charset=utf-16"),
        (b'{"version": 0}', "application/json; charset=no-such-charset"),
        (b"", "application/json"),
        (b"{", "application/json"),
        (b"NaN", "application/json"),
        (b"[]", "application/json"),
        (b'"text"', "application/json"),
        (b"123", "application/json"),
        (b"null", "application/json"),
        (b'{"x": "' + b"a" * THREE_MB + b'"}', "application/json"),
        (b"x=" + b"a" * THREE_MB, "application/x-www-form-urlencoded"),
        (b"&".join(b"f%d=1" % i for i in range(1_500)), "application/x-www-form-urlencoded"),
        (b"version=0", "application/x-www-form-urlencoded"),
        (b"--zz\r\nbroken", "multipart/form-data; boundary=zz"),
        (b"version=0", "text/plain"),
        (b"<version>0</version>", "application/xml"),
        (b"\x00\x01", "application/octet-stream"),
        (b'{"version": 0}', ""),
    ]


class Corpus:
    """Builds the probes for one operation of the schema, with valid values to fill the rest."""

    def __init__(self, schema: dict[str, Any], valid_path: dict[str, str]) -> None:
        self.schema = schema
        self.valid_path = valid_path

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            node = self.schema["components"]["schemas"][name]
        return node

    def body_fields(self, operation: dict[str, Any]) -> list[str]:
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            return []
        return sorted(self.resolve(content["application/json"]["schema"]).get("properties", {}))

    def probes(self, template: str, method: str, operation: dict[str, Any]) -> Iterator[Probe]:
        params = operation.get("parameters", [])
        path_names = [p["name"] for p in params if p["in"] == "path"]
        query_names = [p["name"] for p in params if p["in"] == "query"]
        path = self.fill(template, {})
        yield Probe(method, path)
        for name in path_names:
            for value in HOSTILE_PATH_VALUES:
                yield Probe(method, self.fill(template, {name: value}))
        for name in query_names:
            for value in HOSTILE_QUERY_VALUES:
                yield Probe(method, f"{path}?{name}={value}")
            yield Probe(method, f"{path}?{name}=1&{name}=2&{name}=%00")
        for name in self.body_fields(operation):
            for value in HOSTILE_FIELD_VALUES:
                yield Probe(method, path, f'{{"{name}": {value}}}'.encode())
        if method != "GET":
            for body, content_type in whole_bodies():
                yield Probe(method, path, body, content_type)
        for other in UNKNOWN_METHODS:
            yield Probe(other, path)

    def fill(self, template: str, values: dict[str, str]) -> str:
        path = template
        for name, valid in self.valid_path.items():
            path = path.replace("{" + name + "}", values.get(name, valid))
        # A parameter with no valid value would never be sent its hostile values either.
        assert "{" not in path, f"no valid value for a parameter of {template}"
        return path


def refused_unread_when_signed_out(method: str, path: str) -> bool:
    """Whether a signed-out `method` to `path` is refused before its query or body is read:
    DRF runs the permission checks before any parser, and IsAuthenticated is checked first."""
    try:
        view = resolve(path).func
    except Resolver404:  # a path parameter the corpus has no valid value for: send it all
        return False
    view_class = getattr(view, "view_class", None)
    if view_class is None or not issubclass(view_class, APIView):
        return False
    instance = view_class(**getattr(view, "view_initkwargs", {}))
    instance.request = RequestFactory().generic(method, path)
    permissions = instance.get_permissions()
    return bool(permissions) and isinstance(permissions[0], IsAuthenticated)


def problem(response: Any, probe: Probe) -> str | None:
    """What is wrong with the answer: it must be a 2xx or a 4xx JSON error with a code and a
    message; never a 5xx, a redirect or a non-JSON answer."""
    status = response.status_code
    if status >= 500 or 300 <= status < 400:
        return f"{status} for {probe}: {response.content[:200]!r}"
    if status == 204 and not response.content:
        return None
    content_type = response.get("Content-Type", "")
    if not content_type.startswith("application/json"):
        return f"{status} {content_type} for {probe}"
    body = json.loads(response.content)
    if status < 400:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or not all(
        isinstance(error.get(key), str) and error[key] for key in ("code", "message")
    ):
        return f"{status} without a code and a message for {probe}: {body}"
    return None


def session_client(user: User) -> APIClient:
    """A browser-like client: a signed-in session, CSRF checks enforced."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/api/v1/auth/csrf")
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    return client


def published_schema() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return dict(json.loads(response.content))


@pytest.mark.django_db
def test_every_operation_answers_hostile_input_with_a_json_error(
    alice: User, bob: User, settings: Any
) -> None:
    """Under DEBUG, as `make run` serves: Django's own error pages are HTML there."""
    settings.DEBUG = True
    token = token_client(alice)
    session = session_client(bob)
    clients = {"anonymous": APIClient(), "token": token, "session": session}
    game = new_game(token)
    new_game(session)
    for signed_in in (token, session):  # no 401 or CSRF 403 hides the parser from the corpus
        deep = signed_in.post("/api/v1/games", b"[" * DEEP, content_type="application/json")
        assert deep.json()["error"]["code"] == "json-too-deep"
    token_id = ApiToken.objects.get(user=alice).pk  # listing tokens needs the session
    room = token.post("/api/v1/races", {"private": True}, format="json").json()["room"]
    app = session.post(
        "/api/v1/oauth/apps",
        {"name": "bot", "redirect_uris": ["http://127.0.0.1:8765/cb"]},
        format="json",
    ).json()
    export = token.post("/api/v1/me/export").json()
    valid_path = {
        "game_id": str(game["id"]),
        "export_id": str(export["id"]),
        "token_id": str(token_id),
        "app_id": str(app["id"]),
        "username": "alice",
        "day": days.today().isoformat(),
        "board": "wins",
        "chart": "win-rate",
        "room": room,
        "arena": str(arena_on_known_deals(starts_at=timezone.now()).pk),
        "puzzle_id": str(seeded(1)[0].pk),
        "session_id": str(SignedInSession.objects.get(user=bob).pk),
        "key": BoardPosition.objects.create(
            key="0123456789abcdef01234567",
            code=game["code"],
            position=Game.objects.get(pk=game["id"]).state,
        ).key,
    }
    schema = published_schema()
    corpus = Corpus(schema, valid_path)
    sent, problems = 0, []
    for template, operations in schema["paths"].items():
        for method, operation in operations.items():
            plain = Probe(method.upper(), corpus.fill(template, {}))
            refused_unread = refused_unread_when_signed_out(plain.method, plain.path)
            for probe in corpus.probes(template, plain.method, operation):
                # A query or a body for this operation: never read when the caller is refused.
                unread = probe != plain and (probe.method, probe.path.split("?")[0]) == (
                    plain.method,
                    plain.path,
                )
                for kind, client in clients.items():
                    if kind == "anonymous" and refused_unread and unread:
                        continue
                    if kind == "session" and not client.cookies["sessionid"].value:
                        client = clients[kind] = session_client(bob)
                    client.raise_request_exception = False
                    cache.clear()  # throttles must not hide the parsers from the corpus
                    response = client.generic(
                        # The stubs say str; the test client sends bytes as they are.
                        probe.method,
                        probe.path,
                        probe.body,  # type: ignore[arg-type]
                        content_type=probe.content_type,
                    )
                    sent += 1
                    if (found := problem(response, probe)) is not None:
                        problems.append(found)
    assert not problems, f"{len(problems)} of {sent} answers:\n" + "\n".join(problems[:40])
    assert sent > 3_000
    call_command("verify_games")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/auth/register", "/api/v1/auth/login"])
def test_json_nested_too_deep_is_a_400_for_anonymous_players(path: str) -> None:
    response = APIClient().post(path, b"[" * DEEP + b"]" * DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "json-too-deep"


@pytest.mark.django_db
@pytest.mark.parametrize(("depth", "code"), [(32, "invalid-request"), (33, "json-too-deep")])
def test_json_nests_at_most_32_levels(alice_api: APIClient, depth: int, code: str) -> None:
    """A bounded depth, not a refusal of nesting: within it the serializer judges the data."""
    body = b'{"code": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
    response = alice_api.post("/api/v1/games", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/v1/games", '{"rule": "\\ud800"}'), ("/api/v1/me/settings", '{"language": "\\ud800"}')],
)
def test_a_lone_surrogate_is_a_400(alice_api: APIClient, path: str, body: str) -> None:
    method = alice_api.patch if "settings" in path else alice_api.post
    response = method(path, body.encode(), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid-unicode"


@pytest.mark.django_db
def test_a_surrogate_pair_is_a_character_not_an_error(alice: User) -> None:
    response = session_client(alice).post(
        "/api/v1/tokens", b'{"name": "bot \\ud83c\\udccf"}', content_type="application/json"
    )
    assert response.status_code == 201
    assert response.json()["name"] == "bot \N{PLAYING CARD BLACK JOKER}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/players/%00", "/api/v1/players/a%00b/history", "/api/v1/games/%00/log"]
)
def test_a_nul_byte_in_a_path_parameter_is_a_404(path: str) -> None:
    response = APIClient(raise_request_exception=False).get(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not-found"


#: Race room paths and the methods they take: a room code of any other form names no room.
ROOM_ROUTES = [
    ("get", ""),
    ("post", "/join"),
    ("post", "/ready"),
    ("post", "/start"),
    ("post", "/leave"),
    ("post", "/rematch"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "suffix"), ROOM_ROUTES)
@pytest.mark.parametrize("room", ["a%00b", "%00", "ABC%00EF", "%ED%A0%80", "ABCDE0", "x" * 5_000])
def test_a_room_code_of_the_wrong_form_names_no_race(
    alice_api: APIClient, method: str, suffix: str, room: str
) -> None:
    """Only the room alphabet and length reach the views and the database (NUL was a 500:
    PostgreSQL refuses it); any other text is answered as a room nobody opened."""
    alice_api.raise_request_exception = False
    response = getattr(alice_api, method)(f"/api/v1/races/{room}{suffix}", format="json")
    assert response.status_code == 404, response.content
    assert response.json()["error"]["code"] == "race-not-found"
    assert response.json()["error"]["message"] == "There is no such race."


@pytest.mark.django_db
def test_a_room_code_is_found_in_either_case(alice_api: APIClient, bob_api: APIClient) -> None:
    room = alice_api.post("/api/v1/races", {"private": True}, format="json").json()["room"]
    assert alice_api.get(f"/api/v1/races/{room.lower()}").json()["room"] == room
    joined = bob_api.post(f"/api/v1/races/{room.lower()}/join", {}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["room"] == room
    nobody = alice_api.get("/api/v1/races/ABCDEF" if room != "ABCDEF" else "/api/v1/races/ABCDEG")
    assert nobody.status_code == 404
    assert nobody.json()["error"]["code"] == "race-not-found"


@pytest.mark.django_db
def test_a_body_over_the_limit_is_a_json_413(alice_api: APIClient, settings: Any) -> None:
    body = b'{"code": "' + b"a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b'"}'
    response = alice_api.post("/api/v1/games", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body-too-large"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/nothing", "/api/v1/games/abc", "/api/v1/games/", "/api/nothing"]
)
def test_an_unknown_api_url_is_a_json_404_even_under_debug(path: str, settings: Any) -> None:
    settings.DEBUG = True
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not-found"


@pytest.mark.django_db
def test_a_post_to_an_api_url_without_its_slash_is_a_404_not_a_redirect(settings: Any) -> None:
    """APPEND_SLASH cannot redirect a POST: under DEBUG it raised instead."""
    settings.DEBUG = True
    response = APIClient(raise_request_exception=False).post("/api/schema")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not-found"


def test_the_renderer_never_fails_to_encode_a_message() -> None:
    from api.renderers import JSONRenderer

    rendered = JSONRenderer().render({"error": {"code": "x", "message": "bad \ud800 text"}})
    assert json.loads(rendered)["error"]["message"] == "bad \ud800 text"
