"""The service starts as an ASGI app, answers its probes, and its migrations are complete."""

from __future__ import annotations

import json
import urllib.request

import pytest
from django.core.management import call_command
from django.test import Client

from tests.support.servers import asgi_server


def test_healthz_answers_with_the_database_reachable(db: None) -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True}


def test_readyz_checks_database_and_channel_layer(db: None) -> None:
    response = Client().get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "database": True, "channel_layer": True}


def test_every_response_carries_a_request_id(db: None) -> None:
    response = Client().get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert response["X-Request-ID"] == "abc-123"


def test_migrations_are_complete(db: None) -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_asgi_server_process_serves_healthz() -> None:
    with asgi_server() as server, urllib.request.urlopen(f"{server.url}/healthz") as reply:
        assert reply.status == 200
        assert json.loads(reply.read()) == {"status": "ok", "database": True}
