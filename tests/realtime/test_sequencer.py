"""The sequencer: pushes leave in version order, stale ones never leave, gaps are reported."""

from __future__ import annotations

from api.realtime.sequencer import Sequencer, position_of


def offer(sequencer: Sequencer, version: int, kind: str = "move") -> list[str]:
    """Offer a push whose text names it, e.g. 'move 4'."""
    return sequencer.offer(position_of(version, kind), f"{kind} {version}")


def started_at(version: int, *, ended: bool = False) -> Sequencer:
    sequencer = Sequencer()
    assert sequencer.reset(position_of(version, "state", ended=ended)) == []
    return sequencer


def test_the_next_version_leaves_at_once() -> None:
    sequencer = started_at(3)
    assert offer(sequencer, 4) == ["move 4"]
    assert not sequencer.waiting


def test_an_early_push_waits_for_the_missing_one() -> None:
    sequencer = started_at(0)
    assert offer(sequencer, 2) == []
    assert sequencer.waiting
    assert offer(sequencer, 1) == ["move 1", "move 2"]
    assert not sequencer.waiting


def test_versions_the_client_already_has_are_dropped() -> None:
    sequencer = started_at(5)
    assert offer(sequencer, 5) == []
    assert offer(sequencer, 4, "undo") == []
    assert not sequencer.waiting


def test_a_winning_move_and_its_finished_share_a_version() -> None:
    sequencer = started_at(77)
    assert offer(sequencer, 78) == ["move 78"]
    assert offer(sequencer, 78, "finished") == ["finished 78"]
    assert offer(sequencer, 78, "finished") == []


def test_a_state_of_a_finished_game_swallows_its_late_finished() -> None:
    sequencer = started_at(78, ended=True)
    assert offer(sequencer, 78, "finished") == []


def test_an_abandon_is_a_finished_with_the_next_version() -> None:
    sequencer = started_at(2)
    assert offer(sequencer, 3, "finished") == ["finished 3"]


def test_a_fresh_state_closes_the_gap_and_releases_what_follows() -> None:
    sequencer = started_at(0)
    offer(sequencer, 2)
    offer(sequencer, 4)
    assert sequencer.reset(position_of(3, "state")) == ["move 4"]
    assert not sequencer.waiting
