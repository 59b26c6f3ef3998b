"""The keyed deal is pinned by test vectors and laid out as RULES.md says."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from games.engine import (
    CARDS,
    COLUMN_SIZES,
    DEV_DEAL_KEY,
    FACE_DOWN_COUNTS,
    RULES,
    Card,
    Game,
    GameCode,
    deal_cards,
)

VECTORS = Path(__file__).parent / "data" / "deal_vectors.txt"


def read_vectors() -> list[tuple[GameCode, bytes, list[str]]]:
    vectors = []
    for line in VECTORS.read_text().splitlines():
        if line and not line.startswith("#"):
            code, key, *cards = line.split()
            vectors.append((GameCode.parse(code), bytes.fromhex(key), cards))
    return vectors


def test_deals_match_the_pinned_vectors() -> None:
    vectors = read_vectors()
    assert len(vectors) >= 20
    for code, key, cards in vectors:
        assert [str(c) for c in deal_cards(code.number, key)] == cards, code


def test_the_first_draw_follows_the_documented_byte_stream() -> None:
    block = hmac.new(
        DEV_DEAL_KEY,
        b"yukon-deal-v1:" + (1).to_bytes(8, "big") + (0).to_bytes(4, "big"),
        hashlib.sha256,
    ).digest()
    assert block[0] >= 208  # rejected for n = 52
    j = block[1] % 52
    assert deal_cards(1, DEV_DEAL_KEY)[51] == CARDS[j]


def test_every_deal_holds_each_card_once() -> None:
    for number in range(50):
        assert sorted(deal_cards(number, DEV_DEAL_KEY)) == sorted(CARDS)


def test_the_key_changes_the_deal() -> None:
    assert deal_cards(7, DEV_DEAL_KEY) != deal_cards(7, b"another deployment")


def test_the_rule_letter_does_not_change_the_cards() -> None:
    games = [Game.new(GameCode.parse(f"YU1-{letter}-ABCDEFG"), DEV_DEAL_KEY) for letter in RULES]
    assert len({game.state_key() for game in games}) == 1
    assert [game.rule for game in games] == list(RULES.values())


def test_every_rule_has_pinned_vectors() -> None:
    assert {code.rule.letter for code, _, _ in read_vectors()} == set(RULES)


def test_cards_are_dealt_column_by_column_bottom_to_top() -> None:
    code = GameCode.parse("YU1-C-AAAAAAB")
    cards = list(deal_cards(code.number, DEV_DEAL_KEY))
    game = Game.new(code, DEV_DEAL_KEY)
    start = 0
    for i, (size, down) in enumerate(zip(COLUMN_SIZES, FACE_DOWN_COUNTS, strict=True)):
        column = game.column(i)
        assert column.face_down == down == i
        assert list(game.hidden_cards()[i]) + list(column.face_up) == cards[start : start + size]
        assert len(column.face_up) == (1 if i == 0 else 5)
        start += size
    assert game.column(0).face_up == (Card.parse("7H"),)
    assert sum(c.face_down for c in game.columns) == 21
    assert sum(len(c.face_up) for c in game.columns) == 31
