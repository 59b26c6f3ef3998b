"""The deal: a keyed, portable shuffle from a deal number, and the layout.

Anyone who can turn a code into its cards can read the face-down cards, so the
shuffle is keyed by the deployment's secret deal key. The algorithm is fixed
forever (``docs/notation.md`` specifies it byte for byte; test vectors pin it):

1. A byte stream: block ``k`` (k = 0, 1, ...) is
   ``HMAC-SHA256(key, b"yukon-deal-v1:" + number as 8 bytes big-endian +
   k as 4 bytes big-endian)``; the stream is the blocks concatenated.
2. Fisher-Yates over the ordered deck AS..KS, AH..KH, AD..KD, AC..KC: for
   ``i`` from 51 down to 1, draw ``j`` uniform in ``0..i`` and swap
   positions ``i`` and ``j``. A draw for ``n = i + 1`` choices reads bytes
   ``b`` until ``b < 256 - 256 % n`` (rejection sampling), then ``j = b % n``.
3. The shuffled deck is the dealing order: column by column, left to right,
   each column from its bottom card to its top card.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

from .cards import CARDS, Card, CardIndex

#: The development deal key: fixed so tests and examples are reproducible.
DEV_DEAL_KEY = b"yukon-development-deal-key"
#: Domain separation for the HMAC input; bump the version only with a new code format.
DEAL_CONTEXT = b"yukon-deal-v1:"
#: Cards per column, left to right, and how many of them are dealt face down.
COLUMN_SIZES: tuple[int, ...] = (1, 6, 7, 8, 9, 10, 11)
FACE_DOWN_COUNTS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)


def _stream(number: int, key: bytes) -> Iterator[int]:
    prefix = DEAL_CONTEXT + number.to_bytes(8, "big")
    counter = 0
    while True:
        yield from hmac.new(key, prefix + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        counter += 1


def deal_indexes(number: int, key: bytes) -> list[CardIndex]:
    """The 52 card indexes in dealing order for a deal number and key."""
    if not 0 <= number < 2**64:
        raise ValueError(f"deal number {number} does not fit in 8 bytes")
    deck = list(range(52))
    stream = _stream(number, key)
    for i in range(51, 0, -1):
        n = i + 1
        limit = 256 - 256 % n
        byte = next(stream)
        while byte >= limit:
            byte = next(stream)
        j = byte % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_cards(number: int, key: bytes) -> tuple[Card, ...]:
    """The 52 cards in dealing order (column 1 bottom first, column 7 top last)."""
    return tuple(CARDS[i] for i in deal_indexes(number, key))


def layout(cards: list[CardIndex]) -> list[list[CardIndex]]:
    """Split a dealing order into the 7 columns, each listed bottom to top."""
    columns = []
    start = 0
    for size in COLUMN_SIZES:
        columns.append(cards[start : start + size])
        start += size
    return columns
