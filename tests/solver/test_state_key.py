"""The search's state key: exact, kept up to date move by move, blind to column order."""

from __future__ import annotations

import random

from games.engine import DEAL_COUNT, DEV_DEAL_KEY, RULES, Game, GameCode
from games.engine.solver import rule_tables
from games.engine.solver_core import BOTTOM, FOUND, HIDDEN, HOME, WAITING, Search


def key_from_scratch(search: Search) -> int:
    """What the key of the search's position is, by the module docstring's definition."""
    byte = [HOME] * 52
    for j in range(7):
        column = search.column(j)
        for p, card in enumerate(column):
            byte[card] = (column[p - 1] if p else BOTTOM) | (HIDDEN if p < search.down[j] else 0)
    for card in search.pending:
        byte[card] |= WAITING
    return sum(b << (8 * card) for card, b in enumerate(byte))


def search_of(game: Game) -> Search:
    columns, down, foundations = game.layout()
    return Search(rule_tables(game.rule), columns, down, foundations)


def legal_steps(search: Search) -> list[tuple[int, int]]:
    """Every move of the position as (card, destination), take-backs included."""
    steps: list[tuple[int, int]] = []
    for j in range(7):
        n = search.lens[j]
        for i in range(search.down[j], n):
            card = search.column(j)[i]
            if i == n - 1 and search.found[card // 13] == card % 13:
                steps.append((card, FOUND))
            for k in range(7):
                if k == j or n - i > 20:
                    continue
                top = search.top(k)
                if (top == BOTTOM and card % 13 == 12 and i > 0) or (
                    top != BOTTOM and card in search.children[top]
                ):
                    steps.append((card, k))
    for suit, count in enumerate(search.found):
        if count:
            card = suit * 13 + count - 1
            for k in range(7):
                top = search.top(k)
                if (top == BOTTOM and card % 13 == 12) or (
                    top != BOTTOM and card in search.children[top]
                ):
                    steps.append((card, k))
    return steps


def test_the_key_follows_every_move_and_its_undo() -> None:
    rng = random.Random(11)
    checked = 0
    for rule in RULES.values():
        for _ in range(3):
            search = search_of(Game.new(GameCode(rule, rng.randrange(DEAL_COUNT)), DEV_DEAL_KEY))
            undo: list[tuple[int, int, bytes]] = []
            for _ in range(200):
                assert search.code == key_from_scratch(search)
                steps = legal_steps(search)
                if undo and (not steps or rng.random() < 0.3):
                    record, code, pending = undo.pop()
                    search.undo(record)
                    search.code = code
                    search.pending = pending
                    continue
                if not steps:
                    break
                card, dest = rng.choice(steps)
                before = (search.code, search.pending)
                taken_back = search.loc[card] == FOUND
                undo.append((search.apply(card, dest), *before))
                if taken_back and rng.random() < 0.5:
                    search.set_pending(search.took_back(card, search.top(dest)))
                elif search.pending and rng.random() < 0.5:
                    search.set_pending(b"")
                checked += 1
    assert checked > 1000


def test_the_key_ignores_column_order() -> None:
    game = Game.new(GameCode.parse("YU1-C-AAAAAAB"), DEV_DEAL_KEY)
    columns, down, foundations = game.layout()
    order = [3, 0, 6, 1, 5, 2, 4]
    shuffled = Search(
        rule_tables(game.rule), [columns[j] for j in order], [down[j] for j in order], foundations
    )
    assert shuffled.code == search_of(game).code


def test_turning_a_card_up_changes_the_key() -> None:
    # The same cards on the same cards: only which are face down differs.
    rest = ("", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S")
    face_down = Game.from_layout([("AS", "2S"), rest], [0, 13, 13, 13])
    face_up = Game.from_layout([("", "AS 2S"), rest], [0, 13, 13, 13])
    assert search_of(face_down).code != search_of(face_up).code
