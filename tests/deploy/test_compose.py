"""docker-compose.yml and the Dockerfile, checked by reading them (Docker cannot run here)."""

from __future__ import annotations

import re
from ipaddress import ip_address, ip_network
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("migrate", "web", "ws", "worker")
REQUIRED_ENV = {"DEBUG", "SECRET_KEY", "DEAL_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"}


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_the_topology_has_its_services_with_official_images() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", "migrate", "web", "ws", "worker", "proxy"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert services["proxy"]["image"].startswith("nginx:")
    for name in APP_SERVICES:
        assert services[name]["build"] == "."


def test_postgres_keeps_its_data_in_a_named_volume_and_has_a_healthcheck() -> None:
    spec = compose()
    postgres = spec["services"]["postgres"]
    assert "postgres-data:/var/lib/postgresql/data" in postgres["volumes"]
    assert "postgres-data" in spec["volumes"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert "redis-cli" in spec["services"]["redis"]["healthcheck"]["test"]


def test_migrations_run_once_before_any_worker_starts() -> None:
    services = compose()["services"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
    assert services["migrate"]["restart"] == "no"
    assert services["worker"]["depends_on"] == services["web"]["depends_on"]
    assert services["worker"]["command"][1:3] == ["manage.py", "worker"]
    for name in ("web", "ws"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["postgres"]["condition"] == "service_healthy"
        assert "/readyz" in " ".join(services[name]["healthcheck"]["test"])


def test_workers_get_every_setting_from_the_environment_and_secrets_are_required() -> None:
    services = compose()["services"]
    for name in APP_SERVICES:
        env = services[name]["environment"]
        assert REQUIRED_ENV <= set(env), name
        assert env["DEBUG"] == "false"
        for secret in ("SECRET_KEY", "DEAL_KEY"):
            assert re.fullmatch(rf"\$\{{{secret}:\?[^}}]+\}}", env[secret]), env[secret]
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert "@postgres:5432/" in env["DATABASE_URL"]


def test_http_runs_on_wsgi_workers_and_websockets_on_asgi_behind_the_proxy() -> None:
    services = compose()["services"]
    assert "uvicorn yukon_site.asgi:application" in " ".join(services["ws"]["command"])
    assert any("granian --interface wsgi" in line for line in dockerfile() if line[:3] == "CMD")
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"location /ws/ \{[^}]*proxy_pass http://ws;", nginx)
    assert re.search(r"location / \{[^}]*proxy_pass http://web;", nginx)
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
    for name in ("web", "ws"):
        assert services[name]["environment"]["TRUSTED_PROXIES"] == proxy_address
        assert "ports" not in services[name], f"{name} must be reached through the proxy only"
