"""The engine is pure standard library: it imports without Django or settings."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
ROOT = ENGINE.parent.parent


def test_the_engine_imports_in_a_fresh_interpreter_without_django() -> None:
    script = (
        "import os, sys\n"
        "os.environ.pop('DJANGO_SETTINGS_MODULE', None)\n"
        "import games.engine as e\n"
        "g = e.Game.new(e.GameCode.parse('YU1-C-AAAAAAB'), e.DEV_DEAL_KEY)\n"
        "assert g.legal_moves.count() == 9\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'yukon_site'})\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r})\n{script}"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"


def test_engine_modules_import_only_the_standard_library_and_each_other() -> None:
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the engine
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)


def test_no_engine_module_imports_the_build_tool() -> None:
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.module != "build", path.name
                assert node.module or "build" not in {a.name for a in node.names}, path.name
