"""The examples in the engine's docstrings run as written."""

from __future__ import annotations

import doctest

import pytest

from games.engine import cards, codes, game, moves


@pytest.mark.parametrize("module", [cards, codes, moves, game], ids=lambda m: m.__name__)
def test_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0
