"""Real redis-servers for tests and benchmarks: free ports, temp dirs, stop and restart at will.

`redis_shards()` starts the two servers the channel layer shards over in production
(REDIS_URL lists them; yukon_site/settings.py); `redis_server()` one alone.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from scripts.cluster import READY_LINES, redis_command
from scripts.processes import Child, free_port
from tests.support.servers import require_tool

INSTALL_HINT = "install it with `apt-get install redis-server` (or run .ci/run)"


@dataclass
class RedisServer:
    """One redis-server on a fixed port; `kill()` then `start()` brings it back on the same port."""

    directory: Path
    port: int = field(default_factory=free_port)
    child: Child | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Launch it and return once it prints that it accepts connections."""
        binary = require_tool("redis-server", INSTALL_HINT)
        self.child = Child("redis", redis_command(binary, self.port, self.directory))
        self.child.wait_for(READY_LINES["redis"])

    def kill(self) -> None:
        """Die at once (SIGKILL), the way a crashed or unplugged Redis goes."""
        if self.child is not None:
            self.child.kill()
            self.child = None


@dataclass
class RedisShards:
    """Several redis-servers, one channel layer: REDIS_URL is `url`, comma-separated."""

    servers: list[RedisServer]

    @property
    def url(self) -> str:
        return ",".join(server.url for server in self.servers)

    def start(self) -> None:
        for server in self.servers:
            server.start()

    def kill(self) -> None:
        for server in self.servers:
            server.kill()


@contextmanager
def redis_shards(count: int = 2) -> Iterator[RedisShards]:
    """`count` started redis-servers in a temp dir, killed on exit."""
    with tempfile.TemporaryDirectory(prefix="yukon-redis-") as directory:
        shards = RedisShards([RedisServer(Path(directory) / str(n)) for n in range(count)])
        for server in shards.servers:
            server.directory.mkdir()
        try:
            shards.start()
            yield shards
        finally:
            shards.kill()


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A started redis-server in a temp dir, killed on exit."""
    with tempfile.TemporaryDirectory(prefix="yukon-redis-") as directory:
        server = RedisServer(Path(directory))
        server.start()
        try:
            yield server
        finally:
            server.kill()
