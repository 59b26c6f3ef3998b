"""The compiled engine (mypyc, built by ``make install``) and its sources behave alike.

The rest of the suite runs whichever engine is loaded (compiled where a C
compiler built it); here the same positions go through both, and the engine
and solver suites run once more on the sources alone, in a subprocess.
"""

from __future__ import annotations

import importlib.machinery
import inspect
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    DEAL_COUNT,
    DEV_DEAL_KEY,
    RULES,
    Game,
    GameCode,
    Move,
    compiled,
    native,
    private_form,
    solver,
    solver_core,
)
from tests.engine.both_engines import require_both_engines

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_compiled_engine_is_loaded_unless_switched_off() -> None:
    if require_both_engines():
        assert native.status() == "compiled (mypyc, and the C search)"
        assert native.build_is_current()
        # What hints, analyses and daily deals call searches with the compiled core.
        assert vars(solver)["search"] is solver_core.search
        assert not inspect.isfunction(solver_core.search)  # a compiled function


def test_every_extension_module_beside_the_sources_comes_from_the_build() -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    names = {os.path.basename(path).split(".")[0] for path in native.extension_files()}
    assert names <= {*native.COMPILED, native.SHARED_LIBRARY, native.C_CORE}
    assert all(path.endswith(suffixes) for path in native.extension_files())


def test_the_interpreted_twin_runs_the_sources() -> None:
    twin = native.pure()
    assert twin.compiled() is False
    assert all(str(native.pure(name).__file__).endswith(".py") for name in native.COMPILED)
    assert twin.Game is not Game  # a package of its own, beside games.engine


def test_both_engines_agree_move_by_move_on_random_play() -> None:
    require_both_engines()
    twin: Any = native.pure()
    rng = random.Random(5)
    for rule in RULES.values():
        for _ in range(3):
            code = GameCode(rule, rng.randrange(DEAL_COUNT))
            ours = Game.new(code, DEV_DEAL_KEY)
            theirs = twin.Game.new(twin.GameCode.parse(str(code)), twin.DEV_DEAL_KEY)
            pushed = 0
            for _ in range(300):
                moves = [str(move) for move in ours.legal_moves]
                assert moves == [str(move) for move in theirs.legal_moves]
                if not moves:
                    break
                text = rng.choice(moves)
                roll = rng.random()
                if roll < 0.1 and ours.undo_depth and not pushed:
                    assert repr(ours.undo()) == repr(theirs.undo())
                elif roll < 0.5:
                    ours.push(Move.parse(text))
                    theirs.push(twin.Move.parse(text))
                    pushed += 1
                elif pushed and roll < 0.7:
                    assert str(ours.pop()) == str(theirs.pop())
                    pushed -= 1
                elif pushed:
                    # Back to the played position: play() is never mixed with pushes.
                    for _ in range(pushed):
                        assert str(ours.pop()) == str(theirs.pop())
                    pushed = 0
                else:
                    played = ours.play(Move.parse(text))
                    assert repr(played) == repr(theirs.play(twin.Move.parse(text)))
                assert private_form(ours) == private_form(theirs)
                assert ours.score == theirs.score and ours.move_count == theirs.move_count


@pytest.mark.slow  # a pytest of its own, in a child process
def test_the_engine_and_solver_suites_pass_on_the_sources() -> None:
    """The whole tests/engine and tests/solver, interpreted (YUKON_COMPILE=0), once more."""
    if not compiled():
        # This run already is interpreted (require_both_engines says why).
        require_both_engines()
        return
    here = Path(__file__).relative_to(ROOT)
    twin = Path("tests/solver/test_compiled.py")
    env = {**os.environ, native.SWITCH: "0"}
    command = [sys.executable, "-m", "pytest", "tests/engine", "tests/solver", "-q"]
    command += ["-p", "no:cacheprovider", f"--ignore={here}", f"--ignore={twin}"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1] and "failed" not in done.stdout
