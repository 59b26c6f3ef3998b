"""Cards, moves and game codes round-trip through text; bad text is a precise error."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    ALASKA,
    CARDS,
    CLASSIC,
    DEAL_COUNT,
    FOUNDATION,
    RELAXED,
    RULES,
    RUSSIAN,
    Card,
    GameCode,
    InvalidCardError,
    InvalidGameCodeError,
    InvalidMoveError,
    Move,
    Rule,
    Suit,
    YukonError,
)


@pytest.mark.parametrize("text", ["10D", "TD", "td", "10♦", "t♦", "10d", "10♢"])
def test_ten_of_diamonds_parses_every_way(text: str) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit, str(card)) == (10, Suit.DIAMONDS, "10D")


@pytest.mark.parametrize(
    ("text", "canonical", "rank", "red"),
    [("AS", "AS", 1, False), ("A♠", "AS", 1, False), ("kh", "KH", 13, True),
     ("QC", "QC", 12, False), ("js", "JS", 11, False), ("2♥", "2H", 2, True)],
)  # fmt: skip
def test_cards_parse_to_their_canonical_text(
    text: str, canonical: str, rank: int, red: bool
) -> None:
    card = Card.parse(text)
    assert (str(card), card.rank, card.is_red) == (canonical, rank, red)


def test_every_card_round_trips_and_repr_rebuilds_it() -> None:
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card
        assert eval(repr(card)) == card
        assert Card(card.rank, card.suit) == card
        assert Card.from_index(card.index) is card


@pytest.mark.parametrize(
    "text", ["", "1D", "11D", "0S", "KX", "K", "10", "AS ", " AS", "ÄS", "10DD"]
)
def test_bad_card_text_is_an_invalid_card_error(text: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        Card.parse(text)
    assert caught.value.code == "invalid-card"
    assert isinstance(caught.value, YukonError) and isinstance(caught.value, ValueError)
    assert repr(text) in caught.value.message


def test_suits_run_spades_hearts_diamonds_clubs() -> None:
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert Suit.parse("♦") is Suit.DIAMONDS


def test_moves_round_trip_through_text() -> None:
    assert Move.parse("10D>3") == Move(Card.parse("10D"), 2)
    assert Move.parse("td>3").to == 2
    assert Move.parse("7S>F") == Move(Card.parse("7S"), FOUNDATION)
    assert str(Move.parse("7♠>f")) == "7S>F"
    assert repr(Move.parse("10D>7")) == "Move.parse('10D>7')"
    for card in CARDS:
        for to in range(-1, 7):
            move = Move(card, to)
            assert Move.parse(str(move)) == move
            assert hash(Move.parse(str(move).lower())) == hash(move)


@pytest.mark.parametrize(
    "text", ["", "10D", "10D>", "10D>0", "10D>8", "10D>FF", "10D>>3", "XD>3", "10D > 3", ">3"]
)
def test_text_that_is_not_a_move_is_an_invalid_move_error(text: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Move.parse(text)
    assert caught.value.code == "invalid-move"
    assert caught.value.rule == "syntax"


def test_moves_are_immutable() -> None:
    move = Move.parse("AS>F")
    with pytest.raises(AttributeError):
        move.to = 3


def test_game_codes_parse_case_insensitively() -> None:
    code = GameCode.parse("yu1-c-aaaaaab")
    assert code == GameCode(CLASSIC, 1)
    assert str(code) == "YU1-C-AAAAAAB"
    assert repr(code) == "GameCode.parse('YU1-C-AAAAAAB')"
    assert GameCode.parse("YU1-R-AAAAABA") == GameCode(RELAXED, 26)
    assert GameCode.parse("YU1-C-ZZZZZZZ").number == DEAL_COUNT - 1 == 26**7 - 1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("YU1C-AAAAAAB", "code-format"),
        ("YU1-C-AAAA-AAB", "code-format"),
        ("", "code-format"),
        ("YU2-C-AAAAAAB", "code-prefix"),
        ("XX1-C-AAAAAAB", "code-prefix"),
        ("YU1-X-AAAAAAB", "code-rule"),
        ("YU1-CC-AAAAAAB", "code-rule"),
        ("YU1--AAAAAAB", "code-rule"),
        ("YU1-C-AAAAAA", "code-length"),
        ("YU1-C-AAAAAAAB", "code-length"),
        ("YU1-C-AAAAAA1", "code-characters"),
        ("YU1-C-AAAAAAÄ", "code-characters"),
        ("YU1-C-AAAAAAB ", "code-characters"),
    ],
)
def test_bad_game_codes_name_the_wrong_part(text: str, code: str) -> None:
    with pytest.raises(InvalidGameCodeError) as caught:
        GameCode.parse(text)
    assert caught.value.code == code
    assert caught.value.rule == "code"
    assert repr(text) in caught.value.message


def test_game_code_numbers_must_fit_seven_letters() -> None:
    for number in (-1, DEAL_COUNT):
        with pytest.raises(InvalidGameCodeError) as caught:
            GameCode(CLASSIC, number)
        assert caught.value.code == "code-number"


def test_random_codes_cover_the_whole_range() -> None:
    rng = random.Random(5)
    numbers = [GameCode.random(CLASSIC, rng).number for _ in range(2000)]
    assert all(0 <= n < DEAL_COUNT for n in numbers)
    assert min(numbers) < DEAL_COUNT // 100 and max(numbers) > DEAL_COUNT * 99 // 100
    assert GameCode.random(RELAXED).rule is RELAXED
    assert len({GameCode.random().number for _ in range(20)}) == 20


def test_rules_are_named_by_letter() -> None:
    assert RULES == {"C": CLASSIC, "R": RELAXED, "U": RUSSIAN, "A": ALASKA}
    assert Rule.from_letter("c") is CLASSIC and Rule.from_letter("R") is RELAXED
    assert Rule.from_letter("u") is RUSSIAN and Rule.from_letter("A") is ALASKA
    assert [rule.name for rule in RULES.values()] == ["Classic", "Relaxed", "Russian", "Alaska"]
    with pytest.raises(InvalidGameCodeError) as caught:
        Rule.from_letter("x")
    assert caught.value.code == "code-rule"


def test_a_new_rule_is_a_few_lines_of_data() -> None:
    russian = Rule("U", "Russian", match="same-suit")
    alaska = Rule("A", "Alaska", match="same-suit", rank_steps=(1, -1))
    seven, eight, six = Card.parse("7H"), Card.parse("8H"), Card.parse("6H")
    assert russian.builds_on(seven, eight) and not russian.builds_on(seven, Card.parse("8D"))
    assert not russian.builds_on(seven, six)
    assert alaska.builds_on(seven, eight) and alaska.builds_on(seven, six)
    assert (russian, alaska) == (RUSSIAN, ALASKA)
