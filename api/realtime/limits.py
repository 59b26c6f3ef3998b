"""What one client may hold and send over websockets: open sockets per client, messages per
socket (docs/realtime.md, "Limits").

Sockets are counted per websocket process (a client's sockets to one worker): the count
lives with the sockets themselves, so a process that dies takes its counts with it and
nothing can leak between processes. A signed-in client is counted as its player, an
anonymous one by its address (`ops.client_address`; an IPv6 client by its network, as the
throttles count it).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from ops.client_address import client_address_of_scope, throttle_key


def client_key(scope: dict[str, Any]) -> str:
    """Whose sockets these are: the player, or else the client's address."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"player:{user.pk}"
    return f"address:{throttle_key(client_address_of_scope(scope))}"


class OpenSockets:
    """This process's open sockets per client."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def take(self, key: str, limit: int) -> bool:
        """Count one more socket for `key`; False (nothing counted) when it holds `limit`."""
        if self.counts[key] >= limit:
            return False
        self.counts[key] += 1
        return True

    def give_back(self, key: str) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


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
