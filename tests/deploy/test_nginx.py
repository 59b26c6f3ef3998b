"""The shipped deploy/nginx.conf in front of real workers: each client is known by its own address.

nginx listens on 127.0.0.1; the clients connect from other loopback addresses
(127.0.0.2, 127.0.0.3, ...: all of 127/8 is local on Linux), so the workers see
nginx's address on the socket and must take the client's from the header nginx
sets, and only from nginx.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from scripts.cluster import Cluster, create_players, running_cluster
from tests.support.servers import require_tool

pytestmark = pytest.mark.redis

TIMEOUT = 15
LOGIN_LIMIT = 3
PROXY_ENV = {"THROTTLE_LOGIN": f"{LOGIN_LIMIT}/min", "LOG_LEVEL": "INFO", "DB_POOL_TIMEOUT": "1"}
WRONG: dict[str, object] = {"username": "nobody", "password": "a wrong guess"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """One ASGI worker (HTTP and websockets), PostgreSQL, Redis, nginx with the shipped config."""
    require_tool("redis-server", "apt-get install redis-server (or run .ci/run)")
    with running_cluster(web=0, ws=1, proxy=True, env=PROXY_ENV) as running:
        yield running


def request(
    cluster: Cluster,
    source: str,
    path: str,
    body: dict[str, object] | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, object], http.client.HTTPMessage]:
    """One JSON request through nginx from the loopback address `source`: status, body, headers."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", cluster.proxy_port, timeout=TIMEOUT, source_address=(source, 0)
    )
    try:
        payload = None if body is None else json.dumps(body)
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        conn.request("GET" if body is None else "POST", path, payload, all_headers)
        reply = conn.getresponse()
        return reply.status, json.loads(reply.read() or b"{}"), reply.headers
    finally:
        conn.close()


def login(cluster: Cluster, source: str, headers: dict[str, str] | None = None) -> int:
    return request(cluster, source, "/api/v1/auth/login", WRONG, headers)[0]


def exhaust(cluster: Cluster, source: str, headers: dict[str, str] | None = None) -> None:
    statuses = [login(cluster, source, headers) for _ in range(LOGIN_LIMIT + 1)]
    assert statuses == [401] * LOGIN_LIMIT + [429], statuses


def test_two_clients_behind_the_proxy_get_separate_login_buckets(cluster: Cluster) -> None:
    exhaust(cluster, "127.0.0.2")
    assert login(cluster, "127.0.0.3") == 401


def test_a_forged_header_does_not_lift_the_throttle(cluster: Cluster) -> None:
    exhaust(cluster, "127.0.0.4")
    for forged in (
        {"X-Forwarded-For": "203.0.113.9"},
        {"X-Forwarded-For": "203.0.113.9, 127.0.0.1"},
        {"X-Real-IP": "203.0.113.10", "Forwarded": "for=203.0.113.10"},
    ):
        assert login(cluster, "127.0.0.4", forged) == 429, forged


def test_a_forged_header_cannot_spend_another_clients_bucket(cluster: Cluster) -> None:
    exhaust(cluster, "127.0.0.5", {"X-Forwarded-For": "127.0.0.6"})
    assert login(cluster, "127.0.0.6") == 401


def test_the_access_log_names_the_client_not_the_proxy(cluster: Cluster) -> None:
    status, _, headers = request(
        cluster, "127.0.0.7", "/healthz", headers={"X-Forwarded-For": "203.0.113.9"}
    )
    assert status == 200
    request_id = headers["X-Request-ID"]  # nginx's $request_id, echoed by the worker
    (worker,) = cluster.of_kind("ws")
    worker.child.wait_for(f'"request_id": "{request_id}"')
    (line,) = [json.loads(text) for text in worker.child.lines if request_id in text]
    assert (line["path"], line["client"]) == ("/healthz", "127.0.0.7")


def test_a_websocket_through_the_proxy_is_served_by_the_asgi_worker(cluster: Cluster) -> None:
    (token,) = create_players(cluster.env, 1)
    status, game, _ = request(
        cluster, "127.0.0.8", "/api/v1/games", {}, {"Authorization": f"Bearer {token}"}
    )
    assert status == 201, game
    with connect(
        f"ws://127.0.0.1:{cluster.proxy_port}/ws/v1/games/{game['id']}/",
        origin=Origin(f"http://127.0.0.1:{cluster.proxy_port}"),
        open_timeout=TIMEOUT,
    ) as socket:
        assert json.loads(socket.recv(timeout=TIMEOUT))["t"] == "hello"


def test_a_body_over_the_proxys_limit_gets_the_apis_json_413(cluster: Cluster) -> None:
    """nginx refuses it before any worker: in the API's error shape, not its HTML page."""
    status, body, headers = request(
        cluster, "127.0.0.9", "/api/v1/auth/login", {"username": "x" * 100_000, "password": "p"}
    )
    assert status == 413
    assert headers["Content-Type"].startswith("application/json")
    error = body["error"]
    assert isinstance(error, dict)
    assert error["code"] == "body-too-large"
    assert error["message"]
