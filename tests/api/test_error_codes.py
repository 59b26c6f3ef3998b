"""Every error code the server can produce is in docs/api.md's table and in the schema.

The codes come from their definitions (`api.errors.error_codes`: DRF's table, the
service refusal classes, the engine's codes); a scan of the source makes sure no
literal code escapes that list. That each code is also produced by some test is
checked at the end of a whole-suite run (`tests/support/error_codes.py`).
"""

from __future__ import annotations

import re
from pathlib import Path

from api.errors import error_codes
from tests.support.error_codes import documented_codes
from tests.support.schema import openapi

ROOT = Path(__file__).resolve().parents[2]
#: Literal codes in the source: `error_body("x", ...)`, `"code": "x"`, `code = "x"`, `code="x"`.
LITERAL = re.compile(r'(?:error_body\(\s*|"code":\s*|\bcode\s*=\s*)"([a-z]+(?:-[a-z]+)+)"')
#: Codes that are not REST error codes: websocket errors, internal engine faults, examples.
NOT_REST = {"bad-message", "unknown-type", "invalid-state", "service-error"}


def literal_codes() -> set[str]:
    found: set[str] = set()
    for folder in ("api", "accounts", "ops", "games"):
        for source in (ROOT / folder).rglob("*.py"):
            if "migrations" not in source.parts:
                found.update(LITERAL.findall(source.read_text()))
    return found - NOT_REST


def test_every_literal_code_in_the_source_is_a_known_code() -> None:
    unknown = literal_codes() - error_codes()
    assert not unknown, f"codes produced in the source but missing from error_codes(): {unknown}"
    assert len(literal_codes()) >= 20


def test_the_docs_table_lists_exactly_the_codes_the_server_can_produce() -> None:
    documented = documented_codes()
    assert not error_codes() - documented, f"undocumented: {error_codes() - documented}"
    stale = documented - error_codes()
    assert not stale, f"documented but never produced: {stale}"


def test_the_schema_enumerates_every_code() -> None:
    enum = openapi()["components"]["schemas"]["ErrorDetail"]["properties"]["code"]["enum"]
    assert set(enum) == error_codes()
