"""Requests that clients abandon mid-flight, over raw sockets, and the pool counters after them.

A browser that navigates away, a phone that loses its signal, a script killed
with Ctrl-C: each closes its socket at some point of a request. `abort_storm`
does that on purpose, at every point (half the headers, all headers and half
the body, the whole request), with an orderly close (FIN) or a reset (RST),
for pages, API reads, API writes and websocket handshakes.
"""

from __future__ import annotations

import http.cookiejar
import json
import socket
import struct
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.support.waiting import wait_until

PASSWORD = "correct horse battery staple"
FIGURES = Path(__file__).resolve().parents[2] / "test-artifacts" / "robustness"
IDLE_POOL_TIMEOUT = 30  # abandoned requests still finish their work: wait for that, not longer


@dataclass
class SessionPlayer:
    """A player signed up through the API, holding the session and CSRF cookies."""

    base: str
    cookies: dict[str, str]

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Content-Type": "application/json",
                "Cookie": self.cookie_header,
                "X-CSRFToken": self.cookies["csrftoken"],
                "Origin": self.base,
            },
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.load(reply) if reply.status != 204 else None


def sign_up(base: str, name: str) -> SessionPlayer:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{base}/api/v1/auth/csrf", timeout=30).close()
    csrf = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    assert csrf is not None
    register = urllib.request.Request(
        f"{base}/api/v1/auth/register",
        data=json.dumps({"username": name, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json", "X-CSRFToken": csrf, "Origin": base},
    )
    opener.open(register, timeout=30).close()
    return SessionPlayer(base, {c.name: c.value for c in jar if c.value is not None})


def raw_request(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def websocket_handshake(path: str, headers: dict[str, str]) -> bytes:
    return raw_request(
        "GET",
        path,
        {
            **headers,
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        },
    )


def cuts(request: bytes) -> list[bytes]:
    """What a client may have sent when it gave up: half the head, the head, half the body, all."""
    head_end = request.index(b"\r\n\r\n") + 4
    prefixes = [request[: head_end // 2], request[:head_end]]
    if len(request) > head_end:  # a body: the head and half of it
        prefixes.append(request[: head_end + (len(request) - head_end) // 2])
    prefixes.append(request)
    return list(dict.fromkeys(prefixes))


@dataclass
class StormFigures:
    sent: int = 0
    aborted: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)


def _send_and_drop(address: tuple[str, int], payload: bytes, reset: bool) -> None:
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(payload)
        if reset:  # RST instead of FIN, as a killed client or a lost network does
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def abort_storm(
    base: str, requests: dict[str, bytes], rounds: int, workers: int = 8
) -> StormFigures:
    """Send every cut of every request `rounds` times from `workers` threads, reading no answer.

    Every connection is closed before the server answers (or while it reads the
    request): each counts as sent and aborted.
    """
    parts = urlsplit(base)
    address = (parts.hostname or "127.0.0.1", parts.port or 80)
    jobs = [
        (kind, prefix, (index + n) % 2 == 1)
        for n in range(rounds)
        for kind, request in requests.items()
        for index, prefix in enumerate(cuts(request))
    ]
    figures = StormFigures()
    with ThreadPoolExecutor(workers) as pool:
        for _ in pool.map(lambda job: _send_and_drop(address, job[1], job[2]), jobs):
            pass
    for kind, _, _ in jobs:
        figures.sent += 1
        figures.aborted += 1
        figures.by_kind[kind] = figures.by_kind.get(kind, 0) + 1
    return figures


def pool_stats(base: str) -> dict[str, Any]:
    """The server process's pool counters (GET /healthz/pool, no cookie: no database use)."""
    with urllib.request.urlopen(f"{base}/healthz/pool", timeout=30) as reply:
        return dict(json.load(reply))


def wait_for_idle_pool(base: str) -> dict[str, Any]:
    """Poll the counters until no connection is checked out and nobody waits; fail at the deadline.

    Abandoned requests run to their end, so a few may still hold a connection
    right after the storm; a leaked connection never comes back.
    """

    def idle() -> dict[str, Any] | None:
        stats = pool_stats(base)
        return None if stats["in_use"] or stats["waiting"] else stats

    return wait_until(
        idle,
        lambda: f"the pool connections to come back: {pool_stats(base)}",
        timeout=IDLE_POOL_TIMEOUT,
    )


def readyz(base: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{base}/readyz", timeout=30) as reply:
            return reply.status, dict(json.load(reply))
    except urllib.error.HTTPError as error:
        return error.code, dict(json.loads(error.read() or b"{}"))


def session_headers(player: SessionPlayer) -> dict[str, str]:
    """What a browser sends: the session cookie, and for writes the CSRF token and its origin."""
    return {
        "Cookie": player.cookie_header,
        "X-CSRFToken": player.cookies["csrftoken"],
        "Origin": player.base,
    }


def token_headers(base: str, token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Origin": base}


def player_requests(auth: dict[str, str], game: dict[str, Any], day: str) -> dict[str, bytes]:
    """One request of each kind the storm abandons, each carrying the player's credentials."""
    move = json.dumps({"move": game["legal_moves"][0], "version": game["version"]}).encode()
    write = {**auth, "Content-Type": "application/json"}
    return {
        "page": raw_request("GET", f"/daily/{day}", auth),
        "game page": raw_request("GET", f"/game/{game['id']}", auth),
        "api read": raw_request("GET", f"/api/v1/games/{game['id']}", auth),
        "api write": raw_request("POST", f"/api/v1/games/{game['id']}/moves", write, move),
        "websocket": websocket_handshake(f"/ws/v1/games/{game['id']}/", auth),
    }


def yesterday() -> str:
    """A closed daily deal: its page and ranking are public."""
    return (datetime.now(UTC).date() - timedelta(days=1)).isoformat()


def record(name: str, figures: dict[str, object]) -> None:
    """The figures the issue asks for, printed (pytest -s) and kept in test-artifacts/."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / f"{name}.json").write_text(json.dumps(figures, indent=1))
    print(name, json.dumps(figures))
