"""Quick match cannot be jammed: the queue and a room's seats exclude each other for a player,
even when both requests come at the same moment, and one entry that cannot be seated never
holds up matching for the others."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.races.models import QueueEntry, Racer
from tests.support.play import post, token_client
from tests.support.races import ok, open_room

ATTEMPTS = 12


def at_once(*requests: Any) -> list[Any]:
    """Run the requests on threads released together; their answers in order."""
    start = threading.Barrier(len(requests), timeout=60)
    answers: list[Any] = [None] * len(requests)

    def run(index: int) -> None:
        start.wait()
        try:
            answers[index] = requests[index]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_entering_the_queue_and_joining_a_room_at_once_never_both_succeed(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    for _ in range(ATTEMPTS):
        room = open_room(bob_api)
        queued, joined = at_once(
            lambda: post(alice_api, "/api/v1/races/queue", {"rule": "C"}),
            lambda room=room: post(alice_api, f"/api/v1/races/{room}/join", {}),
        )
        assert sorted([queued.status_code, joined.status_code]) == [200, 409], (
            queued.content,
            joined.content,
        )
        loser = queued if queued.status_code == 409 else joined
        assert loser.json()["error"]["code"] == "already-racing"
        in_queue = QueueEntry.objects.filter(player=alice).exists()
        seated = Racer.objects.filter(player=alice, active=True).exists()
        assert in_queue != seated
        assert alice_api.delete("/api/v1/races/queue").status_code == 204
        for client in (alice_api, bob_api):
            post(client, f"/api/v1/races/{room}/leave", {})


@pytest.mark.django_db
def test_one_entry_that_cannot_be_seated_never_blocks_the_others(
    alice: User, alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    carol_api = token_client(carol)
    open_room(alice_api)  # Alice sits in a room...
    QueueEntry.objects.create(player=alice, rule="C")  # ...and, somehow, in the queue too
    for client in (bob_api, carol_api):
        ok(post(client, "/api/v1/races/queue", {"rule": "C"}))
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=10))

    matched = ok(bob_api.get("/api/v1/races/queue"))
    assert matched["race"] is not None and not matched["waiting"]
    assert ok(carol_api.get("/api/v1/races/queue"))["race"] == matched["race"]
    racers = ok(bob_api.get(f"/api/v1/races/{matched['race']}"))["racers"]
    assert sorted(racer["player"] for racer in racers) == ["bob", "carol"]
    assert not QueueEntry.objects.filter(player=alice).exists()
