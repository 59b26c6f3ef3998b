"""Settings read the environment strictly and refuse development secrets in production."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

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


def test_a_bad_ipv6_throttle_prefix_stops_start_up() -> None:
    result = _settings_import({"THROTTLE_IPV6_PREFIX": "129"})
    assert result.returncode != 0
    assert "THROTTLE_IPV6_PREFIX=129 is above the maximum 128" in result.stderr


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


def _settings_of(env: dict[str, str]) -> dict[str, Any]:
    """The database, channel layer and cache settings a fresh process makes of `env`."""
    code = (
        "import json; from django.conf import settings as s; "
        "hosts = s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts', []); "
        "print(json.dumps({'databases': s.DATABASES, 'redis_url': s.REDIS_URL, "
        "'layer_hosts': [host['address'] for host in hosts], 'cache': s.CACHES['default']}, "
        "default=str))"
    )
    child_env = {
        **os.environ,
        "DATABASE_URL": "postgresql://u@127.0.0.1:1/none",
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        **env,
    }
    for name in ("REDIS_URL", "REPLICA_DATABASE_URL", "DB_TRANSACTION_POOLING"):
        if name not in env:
            child_env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=child_env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


def test_by_default_one_database_no_pooler_settings_and_the_in_memory_layer() -> None:
    found = _settings_of({})
    assert set(found["databases"]) == {"default"}
    assert found["databases"]["default"]["DISABLE_SERVER_SIDE_CURSORS"] is False
    assert (found["redis_url"], found["layer_hosts"]) == ("", [])


def test_shards_a_replica_and_transaction_pooling_from_the_environment() -> None:
    shards = ["redis://10.0.0.1:6379/0", "redis://10.0.0.2:6379/0"]
    found = _settings_of(
        {
            "REDIS_URL": " , ".join(shards),
            "REPLICA_DATABASE_URL": "postgresql://r@replica.internal:5432/yukon",
            "DB_TRANSACTION_POOLING": "true",
        }
    )
    assert found["layer_hosts"] == shards
    assert found["redis_url"] == shards[0] == found["cache"]["LOCATION"]  # counters: the first
    default, replica = found["databases"]["default"], found["databases"]["replica"]
    assert replica["HOST"] == "replica.internal"
    assert replica["TEST"]["MIRROR"] == "default"  # tests read the primary's test database
    for database in (default, replica):
        assert database["DISABLE_SERVER_SIDE_CURSORS"] is True
        # psycopg prepares nothing when Django leaves prepare_threshold at None (PgBouncer 1.18)
        assert database["OPTIONS"].get("prepare_threshold") is None
