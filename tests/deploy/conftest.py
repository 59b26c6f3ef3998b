"""The production topology as real processes (scripts.cluster), shared by this folder's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.engine import CLASSIC
from scripts.cluster import Cluster, running_cluster
from tests.support.play import opening_where
from tests.support.servers import require_tool

#: A deal key of the tests' own (production settings refuse the development one), so that a
#: code deals the same cards every run: CODE, a deal with moves to play under it.
DEAL_KEY = "deploy-tests-deal-key"
CODE = opening_where(CLASSIC, bool, DEAL_KEY.encode())
# Short pool wait so an outage answers 503 in about a second instead of the default ten.
CLUSTER_ENV = {
    "DB_POOL_TIMEOUT": "1",
    "LOG_LEVEL": "WARNING",
    "THROTTLE_MOVES": "100000/min",
    "DEAL_KEY": DEAL_KEY,
}


@pytest.fixture(scope="package")
def cluster() -> Iterator[Cluster]:
    """Three ASGI workers (uvicorn, HTTP and websockets: the production layout), PostgreSQL,
    Redis. Two are of the kind `web` (HTTP clients use them), one `ws` (watchers use it).

    Started once for the folder: each test signs up players of its own and plays games of
    its own, and a test that kills, stops or restarts a worker (or the database) leaves the
    cluster as it found it, whole and serving.
    """
    require_tool("redis-server", "apt-get install redis-server (or run .ci/run)")
    with running_cluster(web=2, ws=1, web_server="uvicorn", env=CLUSTER_ENV) as running:
        yield running
