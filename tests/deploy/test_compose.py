"""docker-compose.yml and the Dockerfile, checked by reading them (Docker cannot run here)."""

from __future__ import annotations

import re
from ipaddress import ip_address, ip_network
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("migrate", "web", "worker")
POOLED_SERVICES = ("web", "worker")  # through PgBouncer; the migration goes straight
REDIS_SHARDS = ("redis-1", "redis-2")
REQUIRED_ENV = {
    "DEBUG",
    "SECRET_KEY",
    "DEAL_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "EMAIL_HOST",
}


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_the_topology_has_its_services_with_official_images() -> None:
    services = compose()["services"]
    assert set(services) == {
        *("postgres", "postgres-replica", "pgbouncer", "redis-1", "redis-2"),
        *("migrate", "web", "worker", "proxy"),
    }
    for name in ("postgres", "postgres-replica"):
        assert services[name]["image"].startswith("postgres:")
    for name in REDIS_SHARDS:
        assert services[name]["image"].startswith("redis:")
    assert services["proxy"]["image"].startswith("nginx:")
    for name in APP_SERVICES:
        assert services[name]["build"] == "."


def test_postgres_keeps_its_data_in_a_named_volume_and_has_a_healthcheck() -> None:
    spec = compose()
    postgres = spec["services"]["postgres"]
    assert "postgres-data:/var/lib/postgresql/data" in postgres["volumes"]
    assert "postgres-data" in spec["volumes"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    for name in REDIS_SHARDS:
        assert "redis-cli" in spec["services"][name]["healthcheck"]["test"]


def test_migrations_run_once_before_any_worker_starts() -> None:
    services = compose()["services"]
    steps = services["migrate"]["command"][-1].split(" && ")
    assert steps == [
        "python manage.py migrate --noinput",
        "python manage.py winnability_data load",
        "python manage.py stock_puzzles",
    ]
    assert services["migrate"]["restart"] == "no"
    assert services["worker"]["depends_on"] == services["web"]["depends_on"]
    assert services["worker"]["command"][1:3] == ["manage.py", "worker"]
    depends = services["web"]["depends_on"]
    assert depends["migrate"]["condition"] == "service_completed_successfully"
    for needed in ("pgbouncer", *REDIS_SHARDS):
        assert depends[needed]["condition"] == "service_healthy"
    assert "/readyz" in " ".join(services["web"]["healthcheck"]["test"])


def test_workers_get_every_setting_from_the_environment_and_secrets_are_required() -> None:
    services = compose()["services"]
    for name in APP_SERVICES:
        env = services[name]["environment"]
        assert REQUIRED_ENV <= set(env), name
        assert env["DEBUG"] == "false"
        for secret in ("SECRET_KEY", "DEAL_KEY", "EMAIL_HOST"):  # no console mail in production
            assert re.fullmatch(rf"\$\{{{secret}:\?[^}}]+\}}", env[secret]), env[secret]
        assert env["REDIS_URL"].split(",") == [f"redis://{name}:6379/0" for name in REDIS_SHARDS]
        pooled = name in POOLED_SERVICES
        assert ("@pgbouncer:6432/" if pooled else "@postgres:5432/") in env["DATABASE_URL"]
        assert env["DB_TRANSACTION_POOLING"] == ("true" if pooled else "false")
        assert env["REPLICA_DATABASE_URL"] == "${REPLICA_DATABASE_URL:-}"  # unset: no replica


def test_one_kind_of_asgi_worker_serves_http_and_websockets_behind_the_proxy() -> None:
    services = compose()["services"]
    assert "command" not in services["web"]  # the image's
    (cmd,) = [line for line in dockerfile() if line[:3] == "CMD"]
    assert "uvicorn yukon_site.asgi:application" in cmd and '--workers \\"$WEB_WORKERS\\"' in cmd
    assert "--ws-per-message-deflate false" in cmd  # CPU before bytes: performance.md
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"location /ws/ \{[^}]*proxy_pass http://web;", nginx)
    assert re.search(r"location / \{[^}]*proxy_pass http://web;", nginx)
    assert re.findall(r"^upstream (\w+)", nginx, re.MULTILINE) == ["web"]
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["proxy"]["volumes"]


def test_the_image_is_slim_frozen_runs_as_non_root_and_collects_static_at_build() -> None:
    lines = dockerfile()
    assert lines[0] == "FROM python:3.12-slim"
    assert any("uv sync --frozen --no-dev" in line for line in lines)
    assert any("collectstatic --noinput" in line for line in lines if line.startswith("RUN"))
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in {"root", "0"}
    last_user = max(i for i, line in enumerate(lines) if line.startswith("USER "))
    assert last_user < next(i for i, line in enumerate(lines) if line.startswith("CMD"))


def test_the_build_context_leaves_out_local_state() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "data", ".env"} <= set(ignored)


def _default(value: str) -> str:
    """The default of a `${NAME:-default}` interpolation (the value compose uses when unset)."""
    match = re.fullmatch(r"\$\{\w+:-([^}]+)\}", value)
    assert match, value
    return match.group(1)


def test_the_workers_trust_the_proxy_alone_for_client_addresses() -> None:
    spec = compose()
    services = spec["services"]
    proxy_address = services["proxy"]["networks"]["default"]["ipv4_address"]
    (subnet,) = [entry["subnet"] for entry in spec["networks"]["default"]["ipam"]["config"]]
    assert ip_address(_default(proxy_address)) in ip_network(_default(subnet))
    assert services["web"]["environment"]["TRUSTED_PROXIES"] == proxy_address
    assert "ports" not in services["web"], "web must be reached through the proxy only"


def test_pgbouncer_pools_by_transaction_from_the_debian_package_the_tests_run() -> None:
    pgbouncer = compose()["services"]["pgbouncer"]
    assert pgbouncer["depends_on"]["postgres"]["condition"] == "service_healthy"
    config = "./deploy/pgbouncer/pgbouncer.ini:/etc/pgbouncer/pgbouncer.ini:ro"
    assert config in pgbouncer["volumes"]
    assert "pool_mode = transaction" in (ROOT / "deploy/pgbouncer/pgbouncer.ini").read_text()
    built = (ROOT / pgbouncer["build"] / "Dockerfile").read_text()
    assert "FROM debian:12" in built and "apt-get install" in built and "pgbouncer" in built
    assert "USER postgres" in built  # pgbouncer refuses to run as root
    assert "/tmp/userlist.txt" in built  # written at start from POSTGRES_PASSWORD


def test_the_replica_is_optional_and_streams_from_the_primary() -> None:
    spec = compose()
    replica = spec["services"]["postgres-replica"]
    assert replica["profiles"] == ["replica"]
    assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
    script = replica["command"][-1]
    assert "pg_basebackup -h postgres" in script and "--write-recovery-conf" in script
    assert "postgres-replica-data:/var/lib/postgresql/data" in replica["volumes"]
    assert "postgres-replica-data" in spec["volumes"]
    allow = "./deploy/postgres/allow-replication.sh:/docker-entrypoint-initdb.d/"
    assert any(volume.startswith(allow) for volume in spec["services"]["postgres"]["volumes"])
    script_text = (ROOT / "deploy/postgres/allow-replication.sh").read_text()
    assert "host replication" in script_text
