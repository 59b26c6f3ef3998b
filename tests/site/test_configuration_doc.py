"""docs/configuration.md is the one list of settings, and says what the code reads.

Its "Settings" table names exactly the environment variables `yukon_site/settings.py` and
`yukon_site/env.py` read; its "Read elsewhere" table names variables of other files, each
found in the files its row names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "configuration.md"
SETTINGS_FILES = [ROOT / "yukon_site" / "settings.py", ROOT / "yukon_site" / "env.py"]
#: The typed readers of yukon_site/env.py; each takes the variable's name first.
READERS = {"env_str", "env_int", "env_bool", "env_list", "env_networks"}
NAME = re.compile(r"`([A-Z][A-Z0-9_]*)`")


def _is_environ(node: ast.expr) -> bool:
    """`os.environ` (or a bare `environ`)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "environ"
    return isinstance(node, ast.Name) and node.id == "environ"


def _named_argument(node: ast.AST) -> ast.expr | None:
    """The name argument of an environment read, or None when `node` is no read."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in READERS | {"getenv"}:
            return node.args[0] if node.args else None
        if isinstance(func, ast.Attribute) and func.attr == "getenv":
            return node.args[0] if node.args else None
        if isinstance(func, ast.Attribute) and func.attr == "get" and _is_environ(func.value):
            return node.args[0] if node.args else None
    if isinstance(node, ast.Subscript) and _is_environ(node.value):
        return node.slice
    return None


def variables_read(path: Path) -> tuple[set[str], list[str]]:
    """The variable names `path` reads, and the reads whose name is not a literal.

    A read with a computed name is allowed only inside the readers themselves (env.py's
    `env_*` functions, whose callers name the variable).
    """
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    unnamed: list[str] = []
    readers = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    readers = [node for node in readers if node.name in READERS]
    inside_readers = {id(node) for reader in readers for node in ast.walk(reader)}
    for node in ast.walk(tree):
        argument = _named_argument(node)
        if argument is None:
            continue
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            names.add(argument.value)
        elif id(node) not in inside_readers:
            unnamed.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}")
    return names, unnamed


def table_rows(section: str) -> list[list[str]]:
    """The cells of each body row of the first table under the `## <section>` heading."""
    text = DOC.read_text()
    parts = re.split(r"^## ", text, flags=re.M)
    found = [part for part in parts if part.split("\n", 1)[0].strip() == section]
    assert found, f"docs/configuration.md has no '## {section}' section"
    rows: list[list[str]] = []
    started = False
    for line in found[0].splitlines():
        if line.startswith("|"):
            started = True
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not set(cells[0]) <= set("- "):
                rows.append(cells)
        elif started:
            break
    return rows[1:]  # the header row is not a variable


def documented(section: str) -> set[str]:
    return {name for row in table_rows(section) for name in NAME.findall(row[0])}


def test_the_readers_are_found() -> None:
    names, _ = variables_read(SETTINGS_FILES[0])
    assert {"DEBUG", "DATABASE_URL", "WS_WRITE_THREADS", "THROTTLE_API"} <= names


def test_every_variable_the_settings_read_is_documented_and_nothing_else() -> None:
    read: set[str] = set()
    unnamed: list[str] = []
    for path in SETTINGS_FILES:
        names, computed = variables_read(path)
        read |= names
        unnamed += computed
    assert unnamed == [], f"name the variable literally, so this test can see it: {unnamed}"
    listed = documented("Settings")
    assert not read - listed, f"read but missing from docs/configuration.md: {read - listed}"
    assert not listed - read, f"listed in docs/configuration.md but never read: {listed - read}"


def test_each_variable_read_elsewhere_is_in_the_files_its_row_names() -> None:
    rows = table_rows("Read elsewhere")
    assert rows
    problems = []
    for row in rows:
        names = NAME.findall(row[0])
        files = re.findall(r"`([^`]+)`", row[1])
        assert names and files, f"a row without a variable or a file: {row}"
        for file in files:
            text = (ROOT / file).read_text()
            problems += [f"{name} not in {file}" for name in names if name not in text]
    assert problems == []


def test_no_variable_is_in_both_tables() -> None:
    assert not documented("Settings") & documented("Read elsewhere")
