"""Which top-level package may import which: the layers, from the bottom up.

    games.engine   the rules, standard library only (tests/engine/test_isolation.py too)
    ops            health, logging, SQL helpers, Redis clients: no project package
    accounts       players' settings and tokens: ops
    games          services, models, pushes: the engine, accounts (players) and ops
    api, frontend  the two front doors (REST + websockets, the app shell): anything
                   below them, not each other
    yukon_site     configuration: wires everything; nothing imports it

Every import counts, including those inside functions (ast sees them all). Within the
layers, no two modules import each other, however indirectly: a cycle means two modules
that are one concept or that lean on each other's internals (only imports under
`if TYPE_CHECKING:` are left out: they never run).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
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


def module_of(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path, root: Path = ROOT) -> Iterator[str]:
    """The modules `path` imports when it runs: every import but those under TYPE_CHECKING."""
    typing_only = {
        inner.lineno
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    }
    for line, module in imports(path, root):
        if line not in typing_only:
            yield module


def import_cycle(root: Path = ROOT) -> list[str] | None:
    """One cycle of modules importing each other (`from a import b` counts as importing
    `a.b` when that is a module, else `a`), or None."""
    paths = {
        module_of(path, root): path
        for top in LAYERS
        if "." not in top
        for path in (root / top).rglob("*.py")
        if "migrations" not in path.parts
    }

    def owner(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph = {
        module: {
            target
            for name in runtime_imports(path, root)
            if (target := owner(name)) is not None and target != module
        }
        for module, path in paths.items()
    }
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as cycle:
        return list(cycle.args[1])
    return None


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


def test_no_modules_import_each_other() -> None:
    assert import_cycle() is None


def test_the_cycle_scan_sees_a_cycle_through_a_function_but_not_type_checking(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "__init__.py").write_text("")
    (games / "a.py").write_text("from games import b\n")
    (games / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from games import a\n"
    )
    assert import_cycle(tmp_path) is None
    (games / "b.py").write_text("def later():\n    from games.a import name\n")
    assert sorted(set(import_cycle(tmp_path) or [])) == ["games.a", "games.b"]
