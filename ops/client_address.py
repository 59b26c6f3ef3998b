"""The client's address: the socket's peer, unless a configured trusted proxy forwarded it.

`X-Forwarded-For` is read only when the peer is in `settings.TRUSTED_PROXIES`,
and from the right: each trusted proxy appended the address it was connected
from, so the first address from the right that is not a trusted proxy is the
client. Whatever lies left of it is the client's own claim and never counts.
With no trusted proxy configured (the default) the header is ignored, so a
forged one cannot choose another throttle bucket or a false log entry.

Throttles count a client by `throttle_key`: an IPv4 address, or an IPv6
address's network of `THROTTLE_IPV6_PREFIX` bits (a /64 by default), since one
home or server is handed a whole /64 and could otherwise hold 2^64 buckets.
"""

from __future__ import annotations

from collections.abc import Mapping
from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address
from typing import Any, Protocol

from django.conf import settings

Address = IPv4Address | IPv6Address


class HasMeta(Protocol):
    """A Django request or a DRF request wrapping one."""

    @property
    def META(self) -> Mapping[str, Any]: ...


def client_address(request: HasMeta) -> str:
    """The address of the client that sent `request`, in canonical form (one client, one key)."""
    peer = str(request.META.get("REMOTE_ADDR", ""))
    address = _parse(peer)
    if address is None:
        return peer
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    hops = [hop.strip() for hop in forwarded.split(",")] if forwarded else []
    while hops and _trusted(address):
        previous = _parse(hops.pop())
        if previous is None:  # not written by a proxy we trust: keep the last known hop
            break
        address = previous
    return str(address)


class _ScopeMeta:
    """An ASGI scope (a websocket's) seen as a request's META: the peer and its headers."""

    def __init__(self, scope: Mapping[str, Any]) -> None:
        client = scope.get("client") or ("", 0)
        headers = dict(scope.get("headers") or ())
        forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1")
        self.META: dict[str, Any] = {"REMOTE_ADDR": client[0], "HTTP_X_FORWARDED_FOR": forwarded}


def client_address_of_scope(scope: Mapping[str, Any]) -> str:
    """`client_address` of an ASGI connection (a websocket), by the same trust rules."""
    return client_address(_ScopeMeta(scope))


def throttle_key(address: str) -> str:
    """The throttle bucket of a client at `address` (as `client_address` writes it): the
    IPv4 address itself, the IPv6 address's `THROTTLE_IPV6_PREFIX`-bit network."""
    parsed = _parse(address)
    if not isinstance(parsed, IPv6Address):
        return address
    return str(IPv6Network((parsed, settings.THROTTLE_IPV6_PREFIX), strict=False))


def _parse(text: str) -> Address | None:
    try:
        address = ip_address(text)
    except ValueError:
        return None
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address) -> bool:
    return any(address in network for network in settings.TRUSTED_PROXIES)
