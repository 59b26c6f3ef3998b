"""Tap, double click and placement help pick destinations as RULES.md says."""

from __future__ import annotations

import pytest

from games.engine import FOUNDATION, Card, IllegalMoveError, Move

from .positions import position


def test_tap_sends_a_last_card_to_its_foundation() -> None:
    game = position({1: ("", "9D AS"), 7: ("", "JC")})
    assert game.tap_move(Card.parse("AS")) == Move.parse("AS>F")


def test_tap_explains_why_a_card_cannot_go_up() -> None:
    game = position({1: ("", "AS 9D"), 2: ("", "3H"), 7: ("", "JC")})
    for card, code in [("AS", "not-top-card"), ("3H", "foundation-order")]:
        with pytest.raises(IllegalMoveError) as caught:
            game.tap_move(Card.parse(card))
        assert caught.value.code == code


def test_double_click_picks_the_longest_accepting_column() -> None:
    game = position({1: ("", "8S"), 2: ("2D 3D", "4C 8C"), 3: ("", "5H 7H 6C"), 7: ("", "JC")})
    assert game.double_click_move(Card.parse("7H")) == Move.parse("7H>2")


def test_double_click_breaks_ties_to_the_left() -> None:
    game = position({1: ("", "2D 8S"), 2: ("", "3D 8C"), 3: ("", "7H"), 7: ("", "JC")})
    assert game.double_click_move(Card.parse("7H")) == Move.parse("7H>1")


def test_double_click_puts_a_king_in_the_leftmost_empty_column() -> None:
    game = position({1: ("", "5S"), 3: ("4D", "KH QC"), 7: ("", "JC")})
    assert game.double_click_move(Card.parse("KH")) == Move.parse("KH>2")


def test_double_click_finds_no_destination() -> None:
    game = position({1: ("", "5S"), 2: ("", "9H"), 7: ("", "JC")})
    with pytest.raises(IllegalMoveError) as caught:
        game.double_click_move(Card.parse("9H"))
    assert caught.value.code == "no-destination" and "9♥" in caught.value.message


def test_double_click_on_a_face_down_card_says_so() -> None:
    game = position({1: ("", "8S"), 2: ("7H", "9C"), 7: ("", "JC")})
    with pytest.raises(IllegalMoveError) as caught:
        game.double_click_move(Card.parse("7H"))
    assert caught.value.code == "card-face-down"


def test_placement_help_lists_every_accepting_destination() -> None:
    game = position(
        {1: ("", "8S"), 2: ("", "8C"), 3: ("", "2S 7H"), 4: ("", "7C"), 7: ("", "JC")},
        foundations=(1, 6, 0, 0),
    )
    assert game.destinations(Card.parse("7H")) == [0, 1, FOUNDATION]
    assert game.destinations(Card.parse("2S")) == []
    assert game.destinations(Card.parse("JC")) == []
    assert game.destinations(Card.parse("6H")) == [3]
    assert game.destinations(Card.parse("5H")) == []
