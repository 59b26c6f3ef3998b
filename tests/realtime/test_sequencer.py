"""The sequencer: pushes leave in version order, stale ones never leave, gaps are reported."""

from __future__ import annotations

from api.realtime.sequencer import Message, Sequencer


def push(version: int, kind: str = "move") -> Message:
    return {"v": version, "t": kind, "d": {}}


def state(version: int, status: str = "active") -> Message:
    return {"v": version, "t": "state", "d": {"status": status}}


def started_at(version: int) -> Sequencer:
    sequencer = Sequencer()
    assert sequencer.reset(state(version)) == []
    return sequencer


def test_the_next_version_leaves_at_once() -> None:
    sequencer = started_at(3)
    assert sequencer.offer(push(4)) == [push(4)]
    assert not sequencer.waiting


def test_an_early_push_waits_for_the_missing_one() -> None:
    sequencer = started_at(0)
    assert sequencer.offer(push(2)) == []
    assert sequencer.waiting
    assert sequencer.offer(push(1)) == [push(1), push(2)]
    assert not sequencer.waiting


def test_versions_the_client_already_has_are_dropped() -> None:
    sequencer = started_at(5)
    assert sequencer.offer(push(5)) == []
    assert sequencer.offer(push(4, "undo")) == []
    assert not sequencer.waiting


def test_a_winning_move_and_its_finished_share_a_version() -> None:
    sequencer = started_at(77)
    assert sequencer.offer(push(78)) == [push(78)]
    assert sequencer.offer(push(78, "finished")) == [push(78, "finished")]
    assert sequencer.offer(push(78, "finished")) == []


def test_a_state_of_a_finished_game_swallows_its_late_finished() -> None:
    sequencer = Sequencer()
    sequencer.reset(state(78, "won"))
    assert sequencer.offer(push(78, "finished")) == []


def test_an_abandon_is_a_finished_with_the_next_version() -> None:
    sequencer = started_at(2)
    assert sequencer.offer(push(3, "finished")) == [push(3, "finished")]


def test_a_fresh_state_closes_the_gap_and_releases_what_follows() -> None:
    sequencer = started_at(0)
    sequencer.offer(push(2))
    sequencer.offer(push(4))
    assert sequencer.reset(state(3)) == [push(4)]
    assert not sequencer.waiting
