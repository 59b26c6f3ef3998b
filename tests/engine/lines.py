"""Checked-in lines of play other tests (and other suites) rely on."""

from __future__ import annotations

from pathlib import Path

from games.engine import GameCode, Move

DATA = Path(__file__).parent / "data"


def winning_line() -> tuple[GameCode, list[Move]]:
    """The Classic deal in ``data/winning_line.txt`` and its winning moves."""
    code, *moves = (DATA / "winning_line.txt").read_text().split()
    return GameCode.parse(code), [Move.parse(m) for m in moves]
