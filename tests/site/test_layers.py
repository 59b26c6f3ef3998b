"""Which top-level package may import which: the layers, from the bottom up.

    games.engine   the rules, standard library only (tests/engine/test_isolation.py too)
    ops            health, logging, SQL helpers, Redis clients: no project package
    accounts       players' settings and tokens: ops
    games          services, models, pushes: the engine, accounts (players) and ops
    api, frontend  the two front doors (REST + websockets, the app shell): anything
                   below them, not each other
    yukon_site     configuration: wires everything; nothing imports it

Every import counts, including those inside functions (ast sees them all).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("games.engine", "ops", "accounts", "games", "api", "frontend", "yukon_site")
ALLOWED: dict[str, set[str]] = {
    "games.engine": set(),
    "ops": set(),
    "accounts": {"ops"},
    "games": {"games.engine", "accounts", "ops"},
    "api": {"games.engine", "games", "accounts", "ops"},
    "frontend": {"games.engine", "games", "accounts", "ops"},
    "yukon_site": {"games.engine", "games", "accounts", "ops", "api", "frontend"},
}


def layer_of(module: str) -> str | None:
    if module == "games.engine" or module.startswith("games.engine."):
        return "games.engine"
    top = module.split(".")[0]
    return top if top in LAYERS else None


def imports(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """(line, absolute module) for every import in `path`; `from a import b` yields `a.b`."""
    package = list(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"


def violations(root: Path = ROOT) -> Iterator[str]:
    for top in ("games", "ops", "accounts", "api", "frontend", "yukon_site"):
        for path in sorted((root / top).rglob("*.py")):
            own = layer_of(".".join(path.relative_to(root).with_suffix("").parts))
            assert own is not None
            for line, module in imports(path, root):
                target = layer_of(module)
                if target is not None and target != own and target not in ALLOWED[own]:
                    yield f"{path.relative_to(root)}:{line} ({own}) imports {module}"


def test_each_layer_imports_only_the_layers_below_it() -> None:
    assert list(violations()) == []


def test_the_engine_imports_only_the_standard_library() -> None:
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        for line, module in imports(path):
            top = module.split(".")[0]
            assert (
                layer_of(module) == "games.engine"
                or top in sys.stdlib_module_names
                or (top == "__future__")
            ), f"{path.relative_to(ROOT)}:{line} imports {module}"


def test_the_scan_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The checker itself: a function-level import of a higher layer is caught."""
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "probe.py").write_text("def f():\n    from api import throttles\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "probe.py").write_text("from .engine import rules\nfrom . import api\n")
    assert list(violations(tmp_path)) == ["ops/probe.py:2 (ops) imports api.throttles"]
