"""Property-based fuzzing of the published schema (schemathesis), in process through WSGI.

Every operation gets a bounded, derandomized set of generated requests, valid and
invalid, anonymous and signed in by token and by session: no answer is a server
error, every answer has the content type and the body its status documents, and
every stored game still replays to its snapshot.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)
from schemathesis.config import SchemathesisConfig

from accounts.models import ApiToken
from yukon_site.wsgi import application

EXAMPLES_PER_OPERATION = 12
# Valid and invalid data, a fixed seed; the coverage phase (some 50 more boundary cases per
# operation) is left to test_hostile_input.py's corpus, to keep the run short.
CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": 13,
        "generation": {"mode": "all", "deterministic": True},
        "phases": {"coverage": {"enabled": False}},
    }
)
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=CONFIG)


#: The one documented 5xx a valid request may get: no deal of the asked grade measured yet
#: (this database has no measured deal), an operator's matter rather than a fault.
DOCUMENTED_UNAVAILABLE = "no-graded-deal"


@schemathesis.check
def no_server_error_but_the_documented_one(ctx: Any, response: Any, case: Any) -> bool | None:
    if response.status_code == 503:
        body = response.json()
        if body.get("error", {}).get("code") == DOCUMENTED_UNAVAILABLE:
            return None
    return not_a_server_error(ctx, response, case)


@pytest.fixture
def connection_kept_across_requests(auth: dict[str, dict[str, str]]) -> Iterator[None]:
    """As Django's test client does: a request ending must not close the test's connection,
    whose transaction holds the test's data (after `auth`: the test client reconnects it)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def auth(kind: str, alice: User) -> dict[str, dict[str, str]]:
    """Headers and cookies of an anonymous client, a token client or a browser session."""
    if kind == "token":
        _, raw = ApiToken.issue(alice, "fuzz")
        return {"headers": {"Authorization": f"Bearer {raw}"}, "cookies": {}}
    if kind == "session":
        browser = APIClient()
        browser.get("/api/v1/auth/csrf")
        browser.force_login(alice)
        csrf = browser.cookies["csrftoken"].value
        cookies = {"sessionid": browser.cookies["sessionid"].value, "csrftoken": csrf}
        return {"headers": {"X-CSRFToken": csrf}, "cookies": cookies}
    return {"headers": {}, "cookies": {}}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["anonymous", "token", "session"])
@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_generated_requests_get_documented_answers_and_never_a_server_error(
    case: Any, auth: dict[str, dict[str, str]], connection_kept_across_requests: None
) -> None:
    cache.clear()  # throttles answer 429 to a burst; the fuzzer should reach the views
    case.call_and_validate(
        **auth,
        checks=[
            no_server_error_but_the_documented_one,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
    call_command("verify_games", stdout=StringIO())
