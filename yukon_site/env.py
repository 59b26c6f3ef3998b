"""Typed readers for environment variables; a bad value stops start-up with a clear message."""

from __future__ import annotations

import os
from ipaddress import IPv4Network, IPv6Network, ip_network
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no)")


def env_int(name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum {minimum}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is above the maximum {maximum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_networks(name: str) -> tuple[IPv4Network | IPv6Network, ...]:
    """Comma-separated networks (`10.0.0.0/8`) or single addresses (`127.0.0.1`); unset: none."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ip_network(item))
        except ValueError as error:
            message = f"{name}: {item!r} is not a network or an address ({error})"
            raise ImproperlyConfigured(message) from None
    return tuple(networks)


def database_from_url(url: str) -> dict[str, object]:
    """Turn `postgres://user:pass@host:port/name?host=/socket/dir` into Django's DATABASES entry."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// or postgresql:// (got {parts.scheme!r}); "
            "PostgreSQL is the only supported database"
        )
    query = parse_qs(parts.query)
    host = query.pop("host", [parts.hostname or ""])[0]
    options = {key: values[-1] for key, values in query.items()}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(parts.port or ""),
        "OPTIONS": options,
    }
