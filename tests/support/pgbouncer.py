"""A real pgbouncer (the Debian package) running the shipped deploy/pgbouncer/pgbouncer.ini,
aimed at the test server: the same pooling mode and limits, with this machine's addresses, trust
authentication (the test server trusts its local users) and one PostgreSQL connection per
pool, so every client's transactions take turns on the same backend: whatever one session
leaves on a backend (a prepared statement, a cursor), the next one meets."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scripts.cluster import PG_SYSTEM_USER
from scripts.processes import Child, free_port

SHIPPED_CONFIG = Path(__file__).resolve().parents[2] / "deploy/pgbouncer/pgbouncer.ini"
INSTALL_HINT = "apt-get install pgbouncer (or bash scripts/install-test-tools.sh)"
READY_LINE = "process up: PgBouncer"


@dataclass
class PgBouncer:
    port: int
    user: str
    database: str

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{self.database}"


def pgbouncer_binary() -> str:
    """pgbouncer's path (Debian puts it in /usr/sbin, which a non-root PATH may lack)."""
    found = shutil.which("pgbouncer", path=f"{os.environ.get('PATH', '')}{os.pathsep}/usr/sbin")
    if found is None:
        raise RuntimeError(f"this test needs `pgbouncer`: {INSTALL_HINT}")
    return found


def local_config(shipped: str, *, primary: Mapping[str, Any], port: int, users: Path) -> str:
    """The shipped config with compose's addresses and password file replaced by this machine's."""
    replacements = {
        "yukon = host=postgres port=5432 dbname=yukon": (
            f"* = host={primary['HOST']} port={primary['PORT'] or 5432}"
        ),
        "listen_addr = 0.0.0.0": "listen_addr = 127.0.0.1",
        "listen_port = 6432": f"listen_port = {port}",
        "auth_type = scram-sha-256": "auth_type = trust",
        "auth_file = /tmp/userlist.txt": f"auth_file = {users}",
        "default_pool_size = 40": "default_pool_size = 1",
        "reserve_pool_size = 10": "reserve_pool_size = 0",
    }
    for old, new in replacements.items():
        if shipped.count(old) != 1:
            raise RuntimeError(f"{SHIPPED_CONFIG} no longer has exactly one {old!r} to replace")
        shipped = shipped.replace(old, new)
    return shipped


@contextmanager
def pgbouncer(primary: Mapping[str, Any]) -> Iterator[PgBouncer]:
    """pgbouncer in front of the server `primary` (a Django settings dict) names."""
    binary = pgbouncer_binary()
    user = PG_SYSTEM_USER if os.geteuid() == 0 else None  # pgbouncer refuses to run as root
    db_user = primary["USER"] or "postgres"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="yukon-pgbouncer-") as name:
        directory = Path(name)
        directory.chmod(0o755)
        users = directory / "users.txt"
        users.write_text(f'"{db_user}" ""\n')
        config = directory / "pgbouncer.ini"
        config.write_text(
            local_config(SHIPPED_CONFIG.read_text(), primary=primary, port=port, users=users)
        )
        with Child("pgbouncer", [binary, str(config)], user=user, group=user) as child:
            child.wait_for(READY_LINE)
            yield PgBouncer(port, db_user, primary["NAME"])
