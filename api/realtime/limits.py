"""What one client may hold and send over websockets: open sockets per client, messages per
socket (docs/realtime.md, "Limits").

Sockets are counted per websocket process (a client's sockets to one worker): the count
lives with the sockets themselves, so a process that dies takes its counts with it and
nothing can leak between processes. A signed-in client is counted as its player. An
anonymous one is counted as its browser (its session, else the CSRF cookie the app's page
gave it), so a class behind one school address is many clients; a client with neither
cookie (a script) is one client with every other cookieless socket of its address. Every
anonymous socket also counts against a far higher ceiling per address
(`WS_MAX_SOCKETS_PER_ADDRESS`), which bounds a client inventing cookies. Addresses are
`ops.client_address`'s, an IPv6 client's by its network, as the throttles count them.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from ops.client_address import client_address_of_scope, throttle_key


@dataclass(frozen=True)
class SocketOwner:
    """Whose socket this is (`client`), and for an anonymous one the address whose ceiling
    it also counts against."""

    client: str
    address: str | None = None


def socket_owner(scope: dict[str, Any]) -> SocketOwner:
    """The player; else the browser (session, else CSRF cookie) and its address."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return SocketOwner(f"player:{user.pk}")
    address = f"address:{throttle_key(client_address_of_scope(scope))}"
    cookies: dict[str, str] = scope.get("cookies", {})
    session_key = getattr(scope.get("session"), "session_key", None)
    cookie = session_key or cookies.get(settings.CSRF_COOKIE_NAME)
    if not cookie:
        return SocketOwner(address, address)
    # Hashed: the counts (readable at /healthz/sockets) never hold a cookie's value.
    browser = hashlib.sha256(cookie.encode()).hexdigest()[:24]
    return SocketOwner(f"browser:{browser}", address)


class OpenSockets:
    """This process's open sockets per client, and per address for anonymous ones."""

    def __init__(self) -> None:
        self.clients: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()

    def take(self, owner: SocketOwner, per_client: int, per_address: int) -> bool:
        """Count one more socket for `owner`; False (nothing counted) when its client holds
        `per_client` or its address `per_address`."""
        if self.clients[owner.client] >= per_client:
            return False
        if owner.address is not None and self.addresses[owner.address] >= per_address:
            return False
        self.clients[owner.client] += 1
        if owner.address is not None:
            self.addresses[owner.address] += 1
        return True

    def give_back(self, owner: SocketOwner) -> None:
        _decrement(self.clients, owner.client)
        if owner.address is not None:
            _decrement(self.addresses, owner.address)


def _decrement(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


open_sockets = OpenSockets()


class MessageRate:
    """A token bucket: `per_second` messages on average, `burst` at once."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
