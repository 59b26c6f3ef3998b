"""JSON requests to a test's server processes, as a third-party client sends them."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

TIMEOUT = 60


def send(
    base: str, path: str, token: str = "", body: dict[str, Any] | None = None
) -> tuple[int, Any]:
    """POST `body` (GET without one); (status, decoded body) for any HTTP answer.

    Connection errors propagate: a server that is down is the test's failure, not an answer.
    """
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as reply:
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def call(
    base: str, path: str, token: str = "", body: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`send` for a request that must succeed with a JSON object: anything else fails the test."""
    status, answer = send(base, path, token, body)
    assert 200 <= status < 300 and isinstance(answer, dict), f"{path}: {status} {answer!r:.300}"
    return answer
