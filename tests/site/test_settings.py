"""Settings read the environment strictly and refuse development secrets in production."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.support.servers import ROOT
from yukon_site.env import database_from_url, env_bool, env_int


def _settings_import(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    child_env = {**os.environ, "DATABASE_URL": "postgresql://u@127.0.0.1:1/none", **env}
    return subprocess.run(
        [sys.executable, "-c", "import yukon_site.settings"],
        cwd=ROOT,
        env=child_env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_refuses_the_development_secret_key() -> None:
    result = _settings_import({"DEBUG": "false"})
    assert result.returncode != 0
    assert "set SECRET_KEY" in result.stderr


def test_production_refuses_the_development_deal_key() -> None:
    result = _settings_import({"DEBUG": "false", "SECRET_KEY": "s3cret-of-our-own"})
    assert result.returncode != 0
    assert "set DEAL_KEY" in result.stderr


def test_production_starts_with_its_own_secrets() -> None:
    result = _settings_import(
        {"DEBUG": "false", "SECRET_KEY": "s3cret-of-our-own", "DEAL_KEY": "deal-key-of-our-own"}
    )
    assert result.returncode == 0, result.stderr


def test_bad_boolean_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="not a boolean"):
        env_bool("DEBUG", True)


def test_bad_integer_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DB_POOL_MAX", "ten")
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("DB_POOL_MAX", 10)


def test_database_url_with_socket_host() -> None:
    config = database_from_url("postgresql://postgres:@/yukon?host=/tmp/sock")
    assert (config["NAME"], config["USER"], config["HOST"]) == ("yukon", "postgres", "/tmp/sock")


def test_database_url_with_tcp_host_and_password() -> None:
    config = database_from_url("postgres://app:p%40ss@db.internal:6543/yukon?sslmode=require")
    assert config["HOST"] == "db.internal"
    assert config["PORT"] == "6543"
    assert config["PASSWORD"] == "p@ss"
    assert config["OPTIONS"] == {"sslmode": "require"}


def test_sqlite_is_not_a_supported_database() -> None:
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL is the only supported"):
        database_from_url("sqlite:///db.sqlite3")


def test_the_redis_layer_reads_longer_than_its_blocking_pop_waits() -> None:
    """Else an idle socket's pop (BZPOPMIN, `brpop_timeout`) times out client-side and the
    consumer dies without a close frame."""
    code = (
        "from django.conf import settings; from channels_redis.core import RedisChannelLayer; "
        "from redis.asyncio.connection import DEFAULT_SOCKET_TIMEOUT; "
        "host = settings.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]; "
        "timeout = host.get('socket_timeout', DEFAULT_SOCKET_TIMEOUT); "
        "print(timeout > RedisChannelLayer.brpop_timeout)"
    )
    env = {"REDIS_URL": "redis://127.0.0.1:1/0", "DJANGO_SETTINGS_MODULE": "yukon_site.settings"}
    child_env = {**os.environ, "DATABASE_URL": "postgresql://u@127.0.0.1:1/none", **env}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=child_env, capture_output=True, text=True
    )
    assert result.stdout.strip() == "True", result.stderr
