"""Every rule of RULES.md and every refusal code, on hand-made positions."""

from __future__ import annotations

import pytest

from games.engine import (
    ALASKA,
    CODES,
    RELAXED,
    RUSSIAN,
    Card,
    Game,
    IllegalMoveError,
    Move,
    private_form,
)

from .positions import position


def refusal(game: Game, text: str) -> IllegalMoveError:
    """The error ``play`` raises for ``text``, after checking ``check`` and ``in`` agree."""
    move = Move.parse(text)
    assert move not in game.legal_moves
    with pytest.raises(IllegalMoveError) as checked:
        game.check(move)
    before = private_form(game)
    with pytest.raises(IllegalMoveError) as played:
        game.play(move)
    assert private_form(game) == before
    assert (played.value.code, played.value.message) == (checked.value.code, checked.value.message)
    assert played.value.code in CODES
    return played.value


def test_a_group_of_any_cards_moves_as_one_unit() -> None:
    game = position({1: ("2C", "10D 5H JD 8S"), 2: ("", "JS"), 7: ("", "KC")})
    result = game.play(Move.parse("10D>2"))
    assert [str(c) for c in result.cards] == ["10D", "5H", "JD", "8S"]
    assert [str(c) for c in game.column(1).face_up] == ["JS", "10D", "5H", "JD", "8S"]
    assert result.kind == "move" and result.from_column == 0
    assert result.turned_up == Card.parse("2C") and game.column(0).face_down == 0


@pytest.mark.parametrize("target", ["8S", "8C"])
def test_a_red_seven_goes_on_a_black_eight(target: str) -> None:
    game = position({1: ("", target), 2: ("", "7H"), 7: ("", "KC")})
    assert Move.parse("7H>1") in game.legal_moves
    game.play(Move.parse("7H>1"))
    assert [str(c) for c in game.column(0).face_up] == [target, "7H"]


def test_classic_refuses_a_red_seven_on_a_red_eight() -> None:
    game = position({1: ("", "8D"), 2: ("", "7H"), 7: ("", "KC")})
    error = refusal(game, "7H>1")
    assert error.code == "wrong-colour" and error.rule == "build"
    assert error.message == (
        "7♥ cannot go on 8♦ in column 1: Classic builds red on black and black on red."
    )


def test_relaxed_accepts_a_red_seven_on_a_red_eight() -> None:
    game = position({1: ("", "8D"), 2: ("", "7H"), 7: ("", "KC")}, rule=RELAXED)
    game.play(Move.parse("7H>1"))
    assert [str(c) for c in game.column(0).face_up] == ["8D", "7H"]


def test_relaxed_still_needs_one_rank_higher() -> None:
    game = position({1: ("", "9D"), 2: ("", "7H"), 7: ("", "KC")}, rule=RELAXED)
    assert refusal(game, "7H>1").code == "wrong-rank"


def test_a_card_needs_exactly_one_rank_higher() -> None:
    game = position({1: ("", "9S"), 2: ("", "7H 6C"), 7: ("", "KC")})
    error = refusal(game, "7H>1")
    assert error.code == "wrong-rank"
    assert error.message == "7♥ cannot go on 9♠ in column 1: only a card of rank 8 fits there."
    assert refusal(position({1: ("", "6S"), 2: ("", "7H"), 7: ("", "KC")}), "7H>1").code == (
        "wrong-rank"
    )


def test_russian_builds_down_in_the_same_suit() -> None:
    game = position({1: ("", "8D"), 2: ("", "7H"), 3: ("", "6H"), 7: ("", "KC")}, rule=RUSSIAN)
    assert refusal(game, "7H>1").code == "wrong-suit"
    assert refusal(game, "6H>1").code == "wrong-rank"
    game = position({1: ("", "8H"), 2: ("", "7H"), 3: ("", "6H"), 7: ("", "KC")}, rule=RUSSIAN)
    assert refusal(game, "6H>1").code == "wrong-rank"  # not up, even in the same suit
    game.play(Move.parse("7H>1"))
    assert [str(c) for c in game.column(0).face_up] == ["8H", "7H"]


def test_alaska_builds_up_or_down_in_the_same_suit() -> None:
    game = position({1: ("", "8H"), 2: ("", "7H"), 3: ("", "9H"), 7: ("", "KC")}, rule=ALASKA)
    assert refusal(game, "9H>2").code == "wrong-rank"  # 9 on 7: two ranks apart
    assert refusal(game, "7H>3").code == "wrong-rank"
    game.play(Move.parse("9H>1"))  # up: 9 on 8
    game.play(Move.parse("8H>2"))  # up again, 8 carrying 9 onto 7
    assert [str(c) for c in game.column(1).face_up] == ["7H", "8H", "9H"]
    game = position({1: ("", "8H"), 2: ("", "7H"), 3: ("", "9D"), 7: ("", "KC")}, rule=ALASKA)
    assert refusal(game, "9D>1").code == "wrong-suit"
    game.play(Move.parse("7H>1"))  # down: 7 on 8
    assert [str(c) for c in game.column(0).face_up] == ["8H", "7H"]


def test_alaska_puts_a_two_on_an_ace_and_a_king_on_a_queen() -> None:
    game = position(
        {1: ("", "AS"), 2: ("", "2S"), 3: ("", "QD"), 4: ("", "KD"), 7: ("", "JC")}, rule=ALASKA
    )
    game.play(Move.parse("2S>1"))
    game.play(Move.parse("KD>3"))
    assert [str(c) for c in game.column(0).face_up] == ["AS", "2S"]
    assert [str(c) for c in game.column(2).face_up] == ["QD", "KD"]
    assert refusal(game, "AS>2").code == "empty-column-needs-king"


def test_an_empty_column_takes_a_king_with_what_lies_on_it() -> None:
    game = position({2: ("3C", "KH QS 4D"), 7: ("", "JC")})
    result = game.play(Move.parse("KH>1"))
    assert [str(c) for c in result.cards] == ["KH", "QS", "4D"]
    assert result.turned_up == Card.parse("3C") and result.score_delta == 5


def test_an_empty_column_refuses_a_queen_led_group_even_to_uncover_a_card() -> None:
    game = position({2: ("3C", "QH 5S"), 7: ("", "JC")})
    error = refusal(game, "QH>1")
    assert error.code == "empty-column-needs-king" and error.rule == "empty-column"
    assert error.message == ("An empty column only accepts a King: Q♥ leads this group of 2 cards.")
    single = position({2: ("3C", "QH"), 7: ("", "JC")})
    assert (
        refusal(single, "QH>1").message == "An empty column only accepts a King: Q♥ is not a King."
    )


def test_a_face_down_card_cannot_move() -> None:
    game = position({1: ("", "8S"), 2: ("7H", "KC"), 7: ("", "JC")})
    error = refusal(game, "7H>1")
    assert error.code == "card-face-down" and "7♥ is face down" in error.message


def test_a_group_is_at_most_twenty_cards() -> None:
    twenty_one = "9H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2D 3D 4D 5D 6D 7D 8D 9D"
    game = position({1: ("", twenty_one), 2: ("", "10C"), 7: ("", "JC")})
    error = refusal(game, "9H>2")
    assert error.code == "group-too-large" and error.rule == "group" and "21" in error.message


def test_twenty_cards_may_move() -> None:
    twenty = "9H 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2D 3D 4D 5D 6D 7D 8D 9D"
    game = position({1: ("AS", twenty), 2: ("", "10C"), 7: ("", "JC")})
    result = game.play(Move.parse("9H>2"))
    assert len(result.cards) == 20 and result.turned_up == Card.parse("AS")


def test_only_the_last_card_goes_to_a_foundation() -> None:
    game = position({1: ("", "AS 5H"), 7: ("", "JC")})
    error = refusal(game, "AS>F")
    assert error.code == "not-top-card" and "covered by 5♥" in error.message


def test_foundations_build_up_from_the_ace_one_rank_at_a_time() -> None:
    game = position({1: ("", "3S"), 2: ("", "2H"), 7: ("", "JC")}, foundations=(1, 0, 0, 0))
    error = refusal(game, "3S>F")
    assert error.code == "foundation-order" and "needs 2♠ next" in error.message
    assert refusal(game, "2H>F").code == "foundation-order"


def test_a_foundation_takes_the_next_card_of_its_suit() -> None:
    game = position({1: ("", "2S"), 7: ("", "JC")}, foundations=(1, 0, 0, 0))
    result = game.play(Move.parse("2S>F"))
    assert result.kind == "foundation" and result.score_delta == 10
    assert game.foundation(0).count == 2 and game.foundation(0).top == Card.parse("2S")


def test_a_card_cannot_move_to_where_it_is() -> None:
    game = position({1: ("", "8S 7H"), 7: ("", "JC")})
    assert refusal(game, "8S>1").code == "same-column"
    on_top = position({1: ("", "8S"), 7: ("", "JC")}, foundations=(1, 0, 0, 0))
    error = refusal(on_top, "AS>F")
    assert error.code == "same-column" and "already on the ♠ foundation" in error.message


def test_a_foundation_top_card_can_be_taken_back_by_the_single_card_rule() -> None:
    game = position({1: ("", "8D"), 2: ("", "8H"), 7: ("", "JC")}, foundations=(7, 0, 0, 0))
    result = game.play(Move.parse("7S>1"))
    assert result.kind == "take-back" and result.is_take_back
    assert result.from_column == -1 and result.score_delta == 0 and result.turned_up is None
    assert game.foundation(0).count == 6 and game.cards_on_foundations == 6


def test_a_take_back_follows_the_colour_and_empty_column_rules() -> None:
    game = position({1: ("", "8S"), 2: ("", "9D"), 7: ("", "JC")}, foundations=(7, 0, 0, 0))
    assert refusal(game, "7S>1").code == "wrong-colour"
    assert refusal(game, "7S>2").code == "wrong-rank"
    assert refusal(game, "7S>3").code == "empty-column-needs-king"
    kings = position({1: ("", "QD"), 7: ("", "JC")}, foundations=(13, 0, 0, 0))
    assert kings.play(Move.parse("KS>2")).is_take_back


def test_only_a_foundations_top_card_comes_back() -> None:
    game = position({1: ("", "4D"), 7: ("", "JC")}, foundations=(7, 0, 0, 0))
    error = refusal(game, "3S>1")
    assert error.code == "not-top-card" and "3♠ lies under 7♠" in error.message
    error = refusal(game, "3S>F")
    assert error.code == "card-not-in-play" and "3♠ is out of play" in error.message


def test_a_won_game_refuses_moves_and_undos() -> None:
    game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
    result = game.play(Move.parse("KS>F"))
    assert result.won and game.won and game.cards_on_foundations == 52
    assert list(game.legal_moves) == [] and not game.legal_moves
    error = refusal(game, "KS>1")
    assert error.code == "game-won" and error.rule == "game-over"
    with pytest.raises(IllegalMoveError) as caught:
        game.undo()
    assert caught.value.code == "game-won"
    assert game.undo_depth == 0


def test_every_error_code_has_a_description_and_a_family() -> None:
    assert all(kind.rule and kind.description for kind in CODES.values())
    assert {
        "empty-column-needs-king", "wrong-rank", "wrong-colour", "card-face-down",
        "card-not-in-play", "group-too-large", "not-top-card", "foundation-order",
        "same-column", "game-won", "nothing-to-undo", "no-destination", "invalid-move",
        "invalid-card",
    } <= set(CODES)  # fmt: skip
