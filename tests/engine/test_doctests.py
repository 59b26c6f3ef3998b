"""The examples in the engine's docstrings run as written.

On the sources (``native.pure``): a compiled module keeps its docstrings, but doctest
finds examples only in Python functions and classes.
"""

from __future__ import annotations

import doctest

import pytest

from games.engine import native


@pytest.mark.parametrize("name", ["cards", "codes", "moves", "game", "lines", "finish"])
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(native.pure(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
