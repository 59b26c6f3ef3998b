"""Check API responses against the OpenAPI document the service publishes."""

from __future__ import annotations

import json
import re
from functools import cache
from io import StringIO
from typing import Any

import jsonschema
from django.core.management import call_command


@cache
def openapi() -> dict[str, Any]:
    out = StringIO()
    call_command(
        "spectacular", "--format", "openapi-json", "--validate", "--fail-on-warn", stdout=out
    )
    return dict(json.loads(out.getvalue()))


def _operation(path: str, method: str) -> tuple[str, dict[str, Any]]:
    bare = path.split("?")[0]
    for template, operations in openapi()["paths"].items():
        pattern = "^" + re.sub(r"\{[^}]+\}", r"[^/]+", template) + "$"
        if re.match(pattern, bare) and method.lower() in operations:
            return template, operations[method.lower()]
    raise AssertionError(f"{method} {path} is not in the OpenAPI schema")


def documented_codes(method: str, path: str, status: int) -> set[str]:
    """The error codes the schema's examples give for that operation and status."""
    template, operation = _operation(path, method)
    documented = operation["responses"].get(str(status))
    assert documented is not None, f"{method} {template} does not document status {status}"
    examples = documented.get("content", {}).get("application/json", {}).get("examples", {})
    return {example["value"]["error"]["code"] for example in examples.values()}


def assert_matches_schema(method: str, path: str, status: int, body: Any) -> None:
    """The body must validate against the documented schema of that status (JSON Schema 2020-12)."""
    template, operation = _operation(path, method)
    documented = operation["responses"].get(str(status))
    assert documented is not None, f"{method} {template} does not document status {status}"
    content = documented.get("content")
    if content is None:
        assert body in (None, b"", ""), f"{method} {template} {status} documents no body"
        return
    schema = {**content["application/json"]["schema"], "components": openapi()["components"]}
    jsonschema.validate(body, schema, cls=jsonschema.Draft202012Validator)
