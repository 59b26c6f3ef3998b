"""A real redis-server for tests and benchmarks: free port, temp dir, stop and restart at will."""

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
