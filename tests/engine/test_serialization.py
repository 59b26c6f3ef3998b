"""The public form hides face-down cards; the private form round-trips exactly."""

from __future__ import annotations

import hashlib
import json

import pytest

from games.engine import DEV_DEAL_KEY, Game, GameCode, InvalidStateError, Move, replay
from games.engine.serialization import PRIVATE_FORMAT, private_form, public_form, read_private

from .lines import winning_line
from .positions import position

PUBLIC_KEYS = [
    "code", "rule", "columns", "foundations", "score", "move_count", "won", "undo_depth",
    "cards_on_foundations", "legal_moves",
]  # fmt: skip


def test_the_public_form_has_exactly_the_documented_shape() -> None:
    game = Game.new(GameCode.parse("YU1-C-AAAAAAB"), DEV_DEAL_KEY)
    public = public_form(game)
    assert list(public) == PUBLIC_KEYS
    assert public["code"] == "YU1-C-AAAAAAB" and public["rule"] == "C"
    assert public["columns"][0] == {"face_down": 0, "face_up": ["7H"]}
    assert public["columns"][1] == {"face_down": 1, "face_up": ["8C", "8S", "7C", "AS", "9S"]}
    assert [c["face_down"] for c in public["columns"]] == [0, 1, 2, 3, 4, 5, 6]
    assert public["foundations"] == [
        {"suit": s, "count": 0, "top": None} for s in ("S", "H", "D", "C")
    ]
    assert public["legal_moves"] == [
        "6S>1", "8H>2", "8D>2", "JC>4", "2D>5", "7S>6", "7C>6", "3S>7", "3C>7",
    ]  # fmt: skip
    assert (public["score"], public["move_count"], public["won"]) == (0, 0, False)
    assert (public["undo_depth"], public["cards_on_foundations"]) == (0, 0)
    assert json.loads(json.dumps(public)) == public


def test_the_public_form_never_names_a_face_down_card() -> None:
    game = Game.new(GameCode.parse("YU1-C-AAAAAAB"), DEV_DEAL_KEY)
    text = json.dumps(public_form(game))
    for column in game.hidden_cards():
        for card in column:
            assert f'"{card}"' not in text and f'"{card}>' not in text


def test_foundations_show_count_and_top() -> None:
    code, moves = winning_line()
    game = replay(code, DEV_DEAL_KEY, [str(m) for m in moves[:5]])
    spades = public_form(game)["foundations"][0]
    assert spades == {"suit": "S", "count": 3, "top": "3S"}


def test_the_private_form_round_trips_through_json() -> None:
    code, moves = winning_line()
    game = Game.new(code, DEV_DEAL_KEY)
    for move in moves[:40]:
        game.play(move)
    game.undo()
    private = json.loads(json.dumps(private_form(game)))
    again = read_private(private)
    assert again == game and private_form(again) == private
    assert again.undo().move == game.undo().move
    assert again == game


def test_the_private_form_keeps_only_the_undo_window() -> None:
    game = position({1: ("", "8S"), 2: ("", "8C 7H"), 7: ("", "QD")})
    for i in range(150):
        game.play(Move.parse("7H>1" if i % 2 == 0 else "7H>2"))
    private = private_form(game)
    assert len(private["undo"]) == 100
    assert read_private(private).undo_depth == 100


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(format="other"),
        lambda d: d.pop("score"),
        lambda d: d.update(score=-1),
        lambda d: d["columns"].pop(),
        lambda d: d["columns"][0]["face_up"].append("AS"),
        lambda d: d["columns"][6]["face_up"].clear(),
        lambda d: d.update(foundations=[1, 0, 0]),
        lambda d: d.update(rule="X"),
        lambda d: d.update(rule="R"),
        lambda d: d.update(code="YU1-C-AAAA"),
        lambda d: d["undo"].append(["nonsense", 0, 1, 0]),
        lambda d: d["undo"].append(["AS>F", 9, 1, 0]),
        lambda d: d["undo"].append(["AS>F", 0, 1, 2]),
        lambda d: d["undo"].append(["AS>F", 0, "1", 0]),
        lambda d: d["undo"].append({"move": "AS>F", "from": 0, "cards": 1, "turned_up": False}),
    ],
)
def test_a_damaged_private_form_is_an_invalid_state_error(damage: object) -> None:
    game = Game.new(GameCode.parse("YU1-C-AAAAAAB"), DEV_DEAL_KEY)
    game.play(Move.parse("6S>1"))
    private = private_form(game)
    damage(private)  # type: ignore[operator]
    with pytest.raises(InvalidStateError) as caught:
        read_private(private)
    assert caught.value.code == "invalid-state"


def test_the_game_methods_are_the_serialization_functions() -> None:
    code, moves = winning_line()
    game = replay(code, DEV_DEAL_KEY, [str(m) for m in moves[:30]])
    assert public_form(game) == public_form(game)
    assert private_form(game) == private_form(game)
    assert private_form(game)["format"] == PRIVATE_FORMAT
    assert read_private(private_form(game)) == read_private(private_form(game)) == game


def test_the_forms_along_the_winning_line_are_byte_for_byte_pinned() -> None:
    """Stored snapshots and answers must not change: a new form needs a migration and a new pin."""
    code, moves = winning_line()
    game = Game.new(code, DEV_DEAL_KEY)
    digest = hashlib.sha256()
    for i, move in enumerate(moves):
        game.play(move)
        if i % 7 == 3:
            game.undo()
            game.play(move)
        for form in (public_form(game), private_form(game)):
            digest.update(json.dumps(form).encode())
    assert digest.hexdigest() == "c8758349f99773c1e20a92a49845f0ce3b7ac35c8695681beb40abb93b0882a5"


def test_hand_made_layouts_must_hold_every_card_once() -> None:
    with pytest.raises(InvalidStateError, match="missing"):
        Game.from_layout([("", "KS")], [12, 13, 13, 12])
    with pytest.raises(InvalidStateError, match="twice"):
        Game.from_layout([("", "KS"), ("", "KS KC")], [12, 13, 13, 12])
    with pytest.raises(InvalidStateError, match="always face up"):
        Game.from_layout([("KS", "")], [12, 13, 13, 13])
    with pytest.raises(InvalidStateError):
        Game.from_layout([("", "KS XX")], [12, 13, 13, 13])
