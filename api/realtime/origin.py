"""The websocket Origin check: the page must come from this server's own origin or a trusted one.

Channels' `AllowedHostsOriginValidator` compares only the Origin's host with
ALLOWED_HOSTS, so a page on another port or scheme of an allowed host (another
service on the same machine) could open sockets with the player's cookie. This
check is Django's CSRF origin rule applied to the handshake: the Origin's
scheme, host and port must equal the server's own (the Host the socket came to,
`ws` → `http`, `wss` or the proxy's `X-Forwarded-Proto: https` → `https`), or an
entry of CSRF_TRUSTED_ORIGINS (`https://*.example.com` covers subdomains). The
Host must be allowed (ALLOWED_HOSTS), as for every HTTP request. A handshake
without an Origin is refused: non-browser clients send one naming the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope

Scope = dict[str, Any]
#: (scheme, host, port), the host lower case and IPv6 without brackets.
Origin = tuple[str, str, int]

DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> Origin | None:
    """An `http(s)://host[:port]` origin, the port made explicit; None for anything else."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _scheme(scope: Scope) -> str:
    """`https` or `http`, the way `HttpRequest.is_secure` decides (SECURE_PROXY_SSL_HEADER)."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        header = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        forwarded = _header(scope, header)
        if forwarded is not None:
            return "https" if forwarded.split(",")[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") == "wss" else "http"


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # Django's own default under DEBUG
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def own_origin(scope: Scope) -> Origin | None:
    """The origin of the page this server would serve at the socket's Host; None if not allowed."""
    host = _header(scope, b"host")
    if host is None:
        server = scope.get("server")
        if not server:
            return None
        host = f"{server[0]}:{server[1]}"
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return parse_origin(f"{_scheme(scope)}://{host}")


def trusted_origin(origin: Origin) -> bool:
    """Whether CSRF_TRUSTED_ORIGINS lists `origin` (wildcards cover subdomains)."""
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = parse_origin(entry.replace("://*.", "://", 1) if wildcard else entry)
        if trusted is None or trusted[0::2] != origin[0::2]:
            continue
        if trusted[1] == origin[1] or (wildcard and is_same_domain(origin[1], f".{trusted[1]}")):
            return True
    return False


def origin_allowed(scope: Scope) -> bool:
    header = _header(scope, b"origin")
    origin = parse_origin(header) if header is not None else None
    own = own_origin(scope)
    if origin is None or own is None:
        return False
    return origin == own or trusted_origin(origin)


class SameOriginValidator:
    """ASGI middleware: lets a handshake through only from an allowed origin (else HTTP 403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        # channels-stubs type the scope as a TypedDict; this is the same ASGI dict.
        return await WebsocketDenier()(cast("_ChannelScope", scope), receive, send)
