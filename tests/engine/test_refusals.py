"""The refusal table: every refused move is worded from it, and every entry is reachable."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import games.engine
from games.engine import (
    ALASKA,
    CODES,
    RELAXED,
    RULES,
    RUSSIAN,
    Card,
    Game,
    IllegalMoveError,
    Move,
)
from games.engine import refusals as r
from games.engine.refusals import REFUSALS, Refusal

from .positions import position

ENGINE = Path(games.engine.__file__).parent
TWENTY_ONE = "9H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2D 3D 4D 5D 6D 7D 8D 9D"


def won() -> Game:
    game = Game.from_layout([("", "KS")], [12, 13, 13, 13])
    game.play(Move.parse("KS>F"))
    return game


def play(game: Game, text: str) -> Callable[[], object]:
    return lambda: game.play(Move.parse(text))


#: Each refusal, a way to provoke it, and the English sentence it gives.
CASES: list[tuple[Refusal, Callable[[], object], str]] = [
    (r.GAME_WON_MOVE, play(won(), "KS>1"), "The game is won: no more moves."),
    (r.GAME_WON_UNDO, won().undo, "The game is won: no more undos."),
    (
        r.FACE_DOWN,
        play(position({1: ("", "8S"), 2: ("7H", "KC"), 7: ("", "JC")}), "7H>1"),
        "Only face-up cards can be moved: 7♥ is face down.",
    ),
    (
        r.OUT_OF_PLAY,
        play(position({1: ("", "4D"), 7: ("", "JC")}, (7, 0, 0, 0)), "3S>F"),
        "3♠ is out of play: it lies under 7♠ on the ♠ foundation.",
    ),
    (
        r.UNDER_FOUNDATION_TOP,
        play(position({1: ("", "4D"), 7: ("", "JC")}, (7, 0, 0, 0)), "3S>1"),
        "Only the top card of a foundation can be taken back: 3♠ lies under 7♠.",
    ),
    (
        r.COVERED,
        play(position({1: ("", "AS 5H"), 7: ("", "JC")}), "AS>F"),
        "Only the last card of a column goes to a foundation: A♠ is covered by 5♥.",
    ),
    (
        r.FOUNDATION_ORDER,
        play(position({1: ("", "3S"), 7: ("", "JC")}, (1, 0, 0, 0)), "3S>F"),
        "A foundation builds up from the Ace one rank at a time: "
        "the ♠ foundation needs 2♠ next, not 3♠.",
    ),
    (
        r.ALREADY_ON_FOUNDATION,
        play(position({1: ("", "8S"), 7: ("", "JC")}, (1, 0, 0, 0)), "AS>F"),
        "A♠ is already on the ♠ foundation.",
    ),
    (
        r.ALREADY_IN_COLUMN,
        play(position({1: ("", "8S 7H"), 7: ("", "JC")}), "8S>1"),
        "8♠ is already in column 1.",
    ),
    (
        r.GROUP_TOO_LARGE,
        play(position({1: ("", TWENTY_ONE), 2: ("", "10C"), 7: ("", "JC")}), "9H>2"),
        "A group moves at most 20 cards: 9♥ leads a group of 21.",
    ),
    (
        r.NOT_A_KING,
        play(position({2: ("3C", "QH"), 7: ("", "JC")}), "QH>1"),
        "An empty column only accepts a King: Q♥ is not a King.",
    ),
    (
        r.GROUP_WITHOUT_KING,
        play(position({2: ("3C", "QH 5S"), 7: ("", "JC")}), "QH>1"),
        "An empty column only accepts a King: Q♥ leads this group of 2 cards.",
    ),
    (
        r.WRONG_RANK,
        play(position({1: ("", "9S"), 2: ("", "7H"), 7: ("", "KC")}, rule=RELAXED), "7H>1"),
        "7♥ cannot go on 9♠ in column 1: only a card of rank 8 fits there.",
    ),
    (
        r.WRONG_RANK_UP_OR_DOWN,
        play(position({1: ("", "9S"), 2: ("", "7S"), 7: ("", "KC")}, rule=ALASKA), "7S>1"),
        "7♠ cannot go on 9♠ in column 1: "
        "Alaska builds one rank up or down, so only a card of rank 8/10 fits there.",
    ),
    (
        r.NOTHING_ON_AN_ACE,
        play(position({1: ("", "AD"), 2: ("", "10S"), 7: ("", "KC")}), "10S>1"),
        "10♠ cannot go on A♦ in column 1: nothing goes on an Ace.",
    ),
    (
        r.WRONG_COLOUR,
        play(position({1: ("", "8D"), 2: ("", "7H"), 7: ("", "KC")}), "7H>1"),
        "7♥ cannot go on 8♦ in column 1: Classic builds red on black and black on red.",
    ),
    (
        r.WRONG_SUIT,
        play(position({1: ("", "8D"), 2: ("", "7H"), 7: ("", "KC")}, rule=RUSSIAN), "7H>1"),
        "7♥ cannot go on 8♦ in column 1: Russian builds down in the same suit.",
    ),
    (
        r.WRONG_SUIT_UP_OR_DOWN,
        play(position({1: ("", "6D"), 2: ("", "7H"), 7: ("", "KC")}, rule=ALASKA), "7H>1"),
        "7♥ cannot go on 6♦ in column 1: Alaska builds up or down in the same suit.",
    ),
    (
        r.NOTHING_TO_UNDO,
        position({1: ("", "8D"), 7: ("", "KC")}).undo,
        "Nothing to undo: only the last 100 moves can be undone.",
    ),
    (
        r.NO_DESTINATION,
        lambda: position({1: ("", "5S"), 2: ("", "9H"), 7: ("", "JC")}).double_click_move(
            Card.parse("9H")
        ),
        "No column accepts 9♥ and what lies on it.",
    ),
]


@pytest.mark.parametrize(
    ("refusal", "provoke", "sentence"), CASES, ids=[case[2][:40] for case in CASES]
)
def test_each_refusal_gives_its_sentence(
    refusal: Refusal, provoke: Callable[[], object], sentence: str
) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        provoke()
    error = caught.value
    assert (error.code, error.template, error.message) == (refusal.code, refusal.template, sentence)
    assert error.template is not None
    assert error.template % error.params == error.message


def test_the_cases_cover_the_whole_table() -> None:
    assert [case[0] for case in CASES] == list(REFUSALS)
    assert len({refusal.template for refusal in REFUSALS}) == len(REFUSALS)


def test_a_build_refusal_names_the_rule_that_refuses() -> None:
    """Every rule that can refuse a suit has its own sentence, naming it."""
    for rule in RULES.values():
        if rule.match == "any":
            assert rule not in r.SUIT_REFUSALS
            continue
        assert rule.name in r.SUIT_REFUSALS[rule].template
    assert r.rank_refusal(ALASKA) is r.WRONG_RANK_UP_OR_DOWN
    assert r.rank_refusal(RUSSIAN) is r.WRONG_RANK


def test_every_refusal_has_a_documented_code() -> None:
    assert {refusal.code for refusal in REFUSALS} <= set(CODES)


def test_templates_name_cards_only_through_parameters() -> None:
    """A card written into a template would not follow the table's display style."""
    for refusal in REFUSALS:
        assert not re.search(r"\b(10|[2-9AJQK])[SHDC♠♥♦♣]\b", refusal.template), refusal


def test_only_the_refusal_table_builds_a_refused_move() -> None:
    """Any other module raising IllegalMoveError itself would bypass the translators."""
    for path in ENGINE.glob("*.py"):
        if path.name == "refusals.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "IllegalMoveError", (path.name, node.lineno)
