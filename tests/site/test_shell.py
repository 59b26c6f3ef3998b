"""The app shell tells the browser app who is signed in, so the app asks no question at start
(and logs no 401 for a visitor): the same answer as `GET /api/v1/auth/me`, or null."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client


def embedded_me(html: str) -> Any:
    found = re.search(r'<script id="me" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the shell carries no #me"
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_a_visitor_gets_null_and_the_api_still_answers_401(client: Client) -> None:
    assert embedded_me(client.get("/daily").text) is None
    assert client.get("/api/v1/auth/me").status_code == 401


@pytest.mark.django_db
def test_a_signed_in_player_gets_what_auth_me_answers(client: Client) -> None:
    alice = User.objects.create_user("alice", password="correct horse battery staple")
    client.force_login(alice)
    me = embedded_me(client.get("/game/1").text)
    assert me == client.get("/api/v1/auth/me").json()
    assert me["username"] == "alice"


@pytest.mark.django_db
def test_a_name_cannot_break_out_of_the_script(client: Client) -> None:
    sly = User.objects.create_user("a</script>", email="x@example.com")
    client.force_login(sly)
    html = client.get("/").text
    assert "a</script>" not in html
    assert embedded_me(html)["username"] == "a</script>"
