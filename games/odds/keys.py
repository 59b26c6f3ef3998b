"""Which deal key a measured deal was dealt with, without ever storing a key.

A deal number is only cards under a key. The published odds are measured on the development
key's deals (`DEV_DEAL_KEY` is public, so anyone can deal them again and check every row);
the grades that deal "a new easy game" need the deployment's own key, whose results are
never published (they would tell a player whether their deal can be won). Rows name their
key by a fingerprint; under the development settings both names give the same one.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal

from games import deals
from games.engine import DEV_DEAL_KEY

#: The keys a measuring run may deal with, by name (a task carries the name, never the key).
type KeyName = Literal["development", "deployment"]
KEY_NAMES: tuple[KeyName, ...] = ("development", "deployment")


def fingerprint(key: bytes) -> str:
    """A short keyed digest that tells keys apart and says nothing of the key."""
    return hmac.new(key, b"yukon-odds-key-fingerprint", hashlib.sha256).hexdigest()[:16]


def key_bytes(name: KeyName) -> bytes:
    """The key a name stands for: the public development key, or this deployment's."""
    return DEV_DEAL_KEY if name == "development" else deals.deal_key()


def published() -> str:
    """The fingerprint of the published sample's key (the development key)."""
    return fingerprint(DEV_DEAL_KEY)


def deployment() -> str:
    """The fingerprint of this deployment's key: its rows grade the deals it deals."""
    return fingerprint(deals.deal_key())
