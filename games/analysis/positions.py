"""The verdict on every position of a game's log, solving as few positions as possible.

A move from a winnable position's predecessor keeps that predecessor winnable (the move
then the line), and a move out of an unwinnable position can only reach unwinnable ones;
an undo returns to a position seen before. So positions are solved from the end of the
log backwards and each verdict is carried along the log's moves to the positions it
decides. Every derived verdict is as exact as the solved one it comes from.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine import UNDO_ENTRY, Move, private_form
from games.engine import Game as EngineGame
from games.engine.solver import SolveResult


@dataclass
class Finding:
    """What is known of one position: a verdict, and for a winnable one its best known line."""

    verdict: str
    reason: str = ""
    nodes: int = 0
    move: str = ""  # first move of the shortest winning line known ("" when won already)
    distance: int | None = None  # its length


@dataclass
class Position:
    private: dict[str, Any]
    versions: list[int] = field(default_factory=list)
    finding: Finding | None = None
    #: (move text, the position it leads to) for every log move played from here.
    moves_out: list[tuple[str, int]] = field(default_factory=list)
    #: Positions whose log move leads here.
    moves_in: list[int] = field(default_factory=list)


def _key(private: Mapping[str, Any]) -> str:
    """The position itself: cards and foundations, not the score or the undo window."""
    return json.dumps([private["columns"], private["foundations"]])


class LogPositions:
    """The distinct positions of one game's log and what is known of each."""

    def __init__(self, start: EngineGame, log: Iterable[str]) -> None:
        self.positions: list[Position] = []
        self.at_version: list[int] = []  # version -> index in positions
        index_of: dict[str, int] = {}
        engine = start

        def visit() -> int:
            private = private_form(engine)
            key = _key(private)
            if key not in index_of:
                index_of[key] = len(self.positions)
                self.positions.append(Position(private))
            index = index_of[key]
            self.positions[index].versions.append(len(self.at_version))
            self.at_version.append(index)
            return index

        here = visit()
        for text in log:
            if text == UNDO_ENTRY:
                engine.undo()
                here = visit()
            else:
                engine.play(Move.parse(text))
                there = visit()
                self.positions[here].moves_out.append((text, there))
                self.positions[there].moves_in.append(here)
                here = there

    @property
    def last_version(self) -> int:
        return len(self.at_version) - 1

    def finding(self, version: int) -> Finding | None:
        return self.positions[self.at_version[version]].finding

    def learn(self, version: int, finding: Finding) -> None:
        """Record a verdict (solved or stored) and carry it along the log's moves."""
        index = self.at_version[version]
        if self.positions[index].finding is None or self._improves(index, finding):
            self.positions[index].finding = finding
        self._spread(index)

    def _spread(self, start: int) -> None:
        work = [start]
        while work:
            index = work.pop()
            position = self.positions[index]
            found = position.finding
            if found is None or found.verdict == "unknown":
                continue
            if found.verdict == "unwinnable":
                for _, there in position.moves_out:
                    if self._improves(there, Finding("unwinnable")):
                        work.append(there)
            else:
                assert found.distance is not None
                for back in position.moves_in:
                    move = next(
                        text for text, there in self.positions[back].moves_out if there == index
                    )
                    if self._improves(back, Finding("winnable", "", 0, move, found.distance + 1)):
                        work.append(back)

    def _improves(self, index: int, finding: Finding) -> bool:
        """Take a derived finding where it decides more, or finds a shorter winning line."""
        known = self.positions[index].finding
        better = (
            known is None
            or known.verdict == "unknown"
            or (
                finding.verdict == "winnable"
                and known.distance is not None
                and finding.distance is not None
                and finding.distance < known.distance
            )
        )
        if better:
            self.positions[index].finding = finding
        return better

    def unsolved(self) -> list[int]:
        """Versions whose position nothing decides yet, last first (the order to solve them)."""
        seen: set[int] = set()
        order = []
        for version in range(self.last_version, -1, -1):
            index = self.at_version[version]
            if self.positions[index].finding is None and index not in seen:
                seen.add(index)
                order.append(version)
        return order

    def solve(self, version: int, solver: Callable[[Mapping[str, Any]], SolveResult]) -> None:
        """Solve the position at `version` and learn from the answer."""
        result = solver(self.positions[self.at_version[version]].private)
        line = [str(move) for move in result.line]
        self.learn(
            version,
            Finding(
                result.verdict,
                result.reason or "",
                result.nodes,
                line[0] if line else "",
                len(line) if result.verdict == "winnable" else None,
            ),
        )


@dataclass(frozen=True)
class Conclusions:
    """Where the game was lost, what would have kept it, how long a win was against the best."""

    losing_version: int | None
    better_move: str
    shortest_line: int | None


def conclude(positions: LogPositions, log_kinds: list[str]) -> Conclusions:
    """The losing move: the move into the final stretch of unwinnable positions.

    `log_kinds[v - 1]` is "undo" or a move kind for the entry of version v.
    """
    last = positions.last_version
    start = positions.finding(0)
    shortest = start.distance if start is not None and start.verdict == "winnable" else None
    version = last
    while version > 0:
        found = positions.finding(version)
        if found is None or found.verdict != "unwinnable":
            break
        version -= 1
    before = positions.finding(version)
    if version == last or before is None or before.verdict != "winnable":
        return Conclusions(None, "", shortest)
    if log_kinds[version] == "undo":
        return Conclusions(None, "", shortest)
    return Conclusions(version + 1, before.move, shortest)
