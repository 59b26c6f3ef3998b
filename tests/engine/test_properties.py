"""Property tests over random deals and random play (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    CARDS,
    DEAL_COUNT,
    DEV_DEAL_KEY,
    FOUNDATION,
    GROUP_LIMIT,
    RULES,
    Card,
    Game,
    GameCode,
    IllegalMoveError,
    InvalidGameCodeError,
    Move,
    public_form,
    replay,
)
from games.engine.moves import MOVES
from games.engine.records import ColumnView

codes = st.builds(GameCode, st.sampled_from(list(RULES.values())), st.integers(0, DEAL_COUNT - 1))
#: Each choice picks a move (choice % number of legal moves), or an undo when
#: choice % 8 == 0 and an undo is available.
choices = st.lists(st.integers(0, 2**16), max_size=120)


def all_cards(game: Game) -> list[Card]:
    tableau = [c for col in game.hidden_cards() for c in col]
    tableau += [c for col in game.columns for c in col.face_up]
    on_foundations = [CARDS[f.suit * 13 + r] for f in game.foundations for r in range(f.count)]
    return tableau + on_foundations


def face_down_total(game: Game) -> int:
    return sum(col.face_down for col in game.columns)


@settings(max_examples=60, deadline=None)
@given(codes, choices)
def test_random_play_keeps_every_invariant(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code, DEV_DEAL_KEY)
    log: list[str] = []
    earned: list[int] = []  # points each move on the current path earned
    for pick in picks:
        if game.won:
            break
        if pick % 8 == 0 and game.undo_depth:
            before_down = face_down_total(game)
            game.undo()
            log.append("undo")
            earned.pop()
            assert face_down_total(game) >= before_down
        else:
            legal = list(game.legal_moves)
            if not legal:
                break
            move = legal[pick % len(legal)]
            before = game.copy()
            result = game.play(move)
            log.append(str(move))
            placed = 10 if result.kind == "foundation" else 0
            turned = 5 if result.turned_up is not None else 0
            earned.append(placed + turned)
            assert result.score_delta == placed + turned
            assert face_down_total(game) <= face_down_total(before)
            assert face_down_total(game) >= face_down_total(before) - 1
            # undo after play restores the exact previous position and score
            undone = game.copy()
            undone.undo()
            assert undone.state_key() == before.state_key()
            assert undone.score == before.score
            assert undone.move_count == before.move_count + 1
        assert sorted(all_cards(game)) == list(CARDS)
        assert game.score == sum(earned)
    assert replay(code, DEV_DEAL_KEY, log) == game


@settings(max_examples=60, deadline=None)
@given(codes, choices)
def test_legal_moves_in_and_check_agree(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code, DEV_DEAL_KEY)
    for pick in picks[:40]:
        legal = list(game.legal_moves)
        assert len(set(legal)) == len(legal) == game.legal_moves.count()
        for move in MOVES:
            try:
                game.check(move)
            except IllegalMoveError:
                assert move not in game.legal_moves and move not in legal
            else:
                assert move in game.legal_moves and move in legal
        if not legal:
            break
        game.play(legal[pick % len(legal)])


def fits_by_the_book(letter: str, card: Card, target: Card) -> bool:
    """RULES.md and issue 20, written out once more without :class:`Rule`."""
    if letter == "C":
        return target.rank == card.rank + 1 and card.is_red != target.is_red
    if letter == "R":
        return target.rank == card.rank + 1
    if letter == "U":
        return target.rank == card.rank + 1 and card.suit == target.suit
    assert letter == "A"
    return abs(target.rank - card.rank) == 1 and card.suit == target.suit


@settings(max_examples=60, deadline=None)
@given(codes, choices)
def test_tableau_moves_are_exactly_those_the_rules_allow(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code, DEV_DEAL_KEY)
    for pick in picks[:40]:
        expected = set()
        columns = game.columns
        for source in range(7):
            face_up = columns[source].face_up
            for depth, card in enumerate(face_up):
                group = len(face_up) - depth
                expected |= {
                    Move(card, to)
                    for to in range(7)
                    if to != source and group <= GROUP_LIMIT and fits(code, card, columns[to])
                }
        for foundation in game.foundations:
            if foundation.top is not None:
                top = foundation.top
                expected |= {Move(top, to) for to in range(7) if fits(code, top, columns[to])}
        tableau = {move for move in game.legal_moves if move.to != FOUNDATION}
        assert tableau == expected
        legal = list(game.legal_moves)
        if not legal:
            break
        game.play(legal[pick % len(legal)])


def fits(code: GameCode, card: Card, column: ColumnView) -> bool:
    """Whether ``card`` (leading what lies on it) may go on ``column`` by the book."""
    if column.card_count == 0:
        return card.rank == 13
    return bool(column.face_up) and fits_by_the_book(code.rule.letter, card, column.face_up[-1])


@settings(max_examples=60, deadline=None)
@given(codes, choices)
def test_push_and_pop_restore_exactly(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code, DEV_DEAL_KEY)
    path = []
    for pick in picks:
        legal = list(game.legal_moves)
        if not legal:
            break
        snapshot = game.copy()
        for move in legal:
            game.push(move)
            game.pop()
            assert game == snapshot
        move = legal[pick % len(legal)]
        game.push(move)
        path.append((move, snapshot))
    for move, snapshot in reversed(path):
        assert game.pop() == move
        assert game == snapshot


@settings(max_examples=60, deadline=None)
@given(codes, choices)
def test_the_public_form_never_leaks_a_face_down_card(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code, DEV_DEAL_KEY)
    for pick in picks[:60]:
        public = public_form(game)
        hidden = {str(c) for col in game.hidden_cards() for c in col}
        visible = {c for col in public["columns"] for c in col["face_up"]}
        visible |= {f["top"] for f in public["foundations"] if f["top"]}
        visible |= {m.split(">")[0] for m in public["legal_moves"]}
        assert not hidden & visible
        text = json.dumps(public)
        assert not any(f'"{card}' in text for card in hidden)
        assert [c["face_down"] for c in public["columns"]] == [
            len(col) for col in game.hidden_cards()
        ]
        legal = list(game.legal_moves)
        if not legal:
            break
        game.play(legal[pick % len(legal)])


@given(st.text())
def test_game_code_parsing_only_raises_invalid_game_code(text: str) -> None:
    try:
        GameCode.parse(text)
    except InvalidGameCodeError as error:
        assert error.code.startswith("code-")


@given(st.text(alphabet="YUyu1-CRcrAZaBzß \u0131\u0130K\u212a", max_size=16))
def test_near_miss_game_codes_only_raise_invalid_game_code(text: str) -> None:
    try:
        code = GameCode.parse(text)
    except InvalidGameCodeError:
        return
    assert GameCode.parse(str(code)) == code and str(code).upper() == text.upper()


@given(codes)
def test_game_codes_round_trip(code: GameCode) -> None:
    assert GameCode.parse(str(code)) == code
    assert GameCode.parse(str(code).lower()) == code
    assert eval(repr(code)) == code


@given(st.sampled_from(MOVES))
def test_moves_round_trip(move: Move) -> None:
    assert Move.parse(str(move)) is move
    assert Move.parse(str(move).lower()) == move
