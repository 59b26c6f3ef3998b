"""The push protocol has one home, games/pushes.py: in docs/realtime.md and pushes.js alike."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from games import pushes

ROOT = Path(__file__).resolve().parents[2]
PUSHES = ROOT / "games" / "pushes.py"
# The transport copies an envelope's `v` and `t` into the layer event, for the sequencer.
TRANSPORT = ROOT / "games" / "push_transport.py"
JS = ROOT / "frontend" / "static" / "frontend" / "js"


def documented_types() -> set[str]:
    """Every `t` docs/realtime.md names: in its JSON examples and its message tables."""
    text = (ROOT / "docs" / "realtime.md").read_text()
    names = set(re.findall(r'"t": "([a-z-]+)"', text))
    in_table = False
    for line in text.splitlines():
        if line.startswith("| `t` |"):
            in_table = True
        elif not line.startswith("|"):
            in_table = False
        elif in_table and not line.startswith("| ---"):
            names.add(re.match(r"\| `([a-z-]+)` \|", line).group(1))  # type: ignore[union-attr]
    return names


def test_every_type_is_documented_and_every_documented_type_is_the_modules() -> None:
    produced = {str(t) for t in pushes.Type} | {str(t) for t in pushes.ClientType}
    assert documented_types() == produced


def test_every_server_type_is_built_by_the_module() -> None:
    """Each `Type` member appears in some function of games/pushes.py (nothing named but unsent)."""
    tree = ast.parse(PUSHES.read_text())
    used = {
        node.attr
        for function in tree.body
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Type"
    }
    assert used == {member.name for member in pushes.Type}


def test_no_other_python_module_builds_an_envelope() -> None:
    """A dict literal with a `"t"` key is a push being spelled out by hand."""
    offenders = []
    for package in ("games", "api", "accounts", "ops", "frontend"):
        for path in (ROOT / package).rglob("*.py"):
            if path in (PUSHES, TRANSPORT):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Dict) and any(
                    isinstance(key, ast.Constant) and key.value == "t" for key in node.keys
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def js_constants(name: str) -> dict[str, str]:
    text = (JS / "pushes.js").read_text()
    body = re.search(rf"export const {name} = Object\.freeze\(\{{(.*?)\}}\);", text, re.S)
    assert body is not None, f"pushes.js has no {name}"
    return dict(re.findall(r'(\w+): "([a-z-]+)"', body.group(1)))


def test_the_browser_names_the_same_types() -> None:
    assert js_constants("PUSH") == {member.name: str(member) for member in pushes.Type}
    assert js_constants("CLIENT") == {member.name: str(member) for member in pushes.ClientType}


def test_no_other_script_spells_a_message_type() -> None:
    pattern = re.compile(r'\bt (?:===|!==) "|\{ t: "|\["(?:' + "|".join(pushes.Type) + r')"')
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in JS.rglob("*.js")
        if path.name != "pushes.js"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_socket_messages_encode_as_before() -> None:
    """The enum members travel as plain strings: the wire text is unchanged."""
    assert json.dumps(pushes.pong()) == '{"t": "pong"}'
    assert json.dumps(pushes.error("bad-message", "Send one object.")) == (
        '{"t": "error", "d": {"code": "bad-message", "message": "Send one object."}}'
    )
    assert json.dumps(pushes.hello(None, owner=False)) == (
        '{"t": "hello", "d": {"username": null, "owner": false}}'
    )
    assert json.dumps(pushes.lobby([])) == '{"v": 0, "t": "lobby", "d": {"games": []}}'


def test_only_finished_ends_a_game() -> None:
    assert pushes.ENDS_GAME == {pushes.Type.FINISHED}
