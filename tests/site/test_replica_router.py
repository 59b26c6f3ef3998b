"""The replica router's rule (ops/replica.py) without a replica: which alias each read asks for.
The real streaming replica is in tests/deploy/test_replica.py."""

from __future__ import annotations

import pytest

from games.models import Game
from ops import replica
from ops.replica import ReplicaRouter, reads_from_replica, replica_reads

router = ReplicaRouter()


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replica, "replica_configured", lambda: True)


@pytest.mark.usefixtures("configured")
def test_only_reads_asked_for_go_to_the_replica_and_writes_never() -> None:
    assert router.db_for_read(Game) == "default"
    with replica_reads():
        assert router.db_for_read(Game) == "replica"
        assert router.db_for_write(Game) == "default"
        with replica_reads(enabled=False):  # a player's own page inside a public view
            assert router.db_for_read(Game) == "default"
        assert router.db_for_read(Game) == "replica"
    assert router.db_for_read(Game) == "default"
    assert reads_from_replica(lambda: router.db_for_read(Game))() == "replica"


@pytest.mark.django_db  # the test runs inside a transaction
@pytest.mark.usefixtures("configured")
def test_a_read_inside_a_transaction_stays_on_the_primary() -> None:
    with replica_reads():
        assert router.db_for_read(Game) == "default"


def test_without_a_replica_everything_is_the_primary_and_it_alone_migrates() -> None:
    with replica_reads():
        assert router.db_for_read(Game) == "default"
    assert router.allow_migrate("default", "games")
    assert not router.allow_migrate("replica", "games")
