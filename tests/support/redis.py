"""A real redis-server for tests and benchmarks: free port, temp dir, stop and restart at will."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.servers import free_port, require_tool, wait_for_line

INSTALL_HINT = "install it with `apt-get install redis-server` (or run .ci/run)"
READY_LINE = "Ready to accept connections"


@dataclass
class RedisServer:
    """One redis-server on a fixed port; `kill()` then `start()` brings it back on the same port."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    log: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Launch it and return once it prints that it accepts connections."""
        binary = require_tool("redis-server", INSTALL_HINT)
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        wait_for_line(self.process, READY_LINE, self.log)

    def kill(self) -> None:
        """Die at once (SIGKILL), the way a crashed or unplugged Redis goes."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


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
