"""Analysis fixtures: small solver budgets, so a whole game is analysed (and mined for
puzzles) in a second or two."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def small_analysis_budget(settings: Any) -> None:
    settings.ANALYSIS_POSITION_NODES = 5_000
    settings.ANALYSIS_CHUNK_POSITIONS = 50
    settings.SOLVER_ASSIST_SECONDS = 1
    settings.PUZZLE_SOLVER_NODES = 5_000  # a lost game's analysis queues its puzzles' mining
