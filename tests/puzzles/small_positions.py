"""Small positions with exactly one winning move, for the puzzle tests' exhaustive judge.

`data/small_unique.jsonl` pins positions of a few cards (the rest home) where the solver
found exactly one legal move that keeps the win; the tests check each against a plain
exhaustive search (tests/support/exhaustive.py), which knows nothing of the solver or of
the puzzle proof. Such positions are rare among random small ones (about 1 in 3,000), so
they are searched for once and pinned; to search again:

    .venv/bin/python -m tests.puzzles.small_positions 40000 > tests/puzzles/data/small_unique.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from games.engine import CARDS, RULES, Game, Rule, private_form
from games.engine.solver import solve

#: The pinned positions, one JSON object a line: the layout and the move the solver found.
PINNED = Path(__file__).parent / "data" / "small_unique.jsonl"
#: (columns, most cards left per suit, most face-up cards per column): the shapes tried.
SHAPES = ((3, 4, 1), (4, 5, 1), (7, 6, 1), (7, 8, 2), (5, 6, 2))
#: Solver positions per solve while searching (small positions need far fewer).
SEARCH_NODES = 20_000


def random_position(rule: Rule, rng: random.Random, shape: tuple[int, int, int]) -> Game | None:
    """The top cards of each suit dealt into `columns` columns, most of them face down."""
    columns, most_left, most_up = shape
    left = [rng.randint(0, most_left) for _ in range(4)]
    cards = [str(CARDS[s * 13 + 12 - r]) for s in range(4) for r in range(left[s])]
    if len(cards) < columns:
        return None
    rng.shuffle(cards)
    piles = [[card] for card in cards[:columns]]
    for card in cards[columns:]:
        piles[rng.randrange(columns)].append(card)
    layout = []
    for pile in piles:
        up = rng.randint(1, min(most_up, len(pile)))
        layout.append((" ".join(pile[:-up]), " ".join(pile[-up:])))
    return Game.from_layout(layout, [13 - n for n in left], rule=rule)


def only_winner(game: Game) -> str | None:
    """The one legal move after which the solver proves a win, when there is exactly one."""
    moves = list(game.legal_moves)
    if len(moves) < 2 or solve(game, node_budget=SEARCH_NODES).verdict != "winnable":
        return None
    winners = []
    for move in moves:
        game.push(move)
        verdict = solve(game, node_budget=SEARCH_NODES).verdict
        game.pop()
        if verdict != "unwinnable":
            winners.append(move)
        if len(winners) > 1:
            return None
    return str(winners[0]) if winners else None


def layout_of(game: Game) -> dict[str, object]:
    private = private_form(game)
    return {
        "rule": private["rule"],
        "columns": [
            [" ".join(column["face_down"]), " ".join(column["face_up"])]
            for column in private["columns"]
        ],
        "foundations": private["foundations"],
    }


def read(line: str) -> tuple[Game, str]:
    """A pinned position and the move the solver found."""
    data = json.loads(line)
    columns = [(down, up) for down, up in data["columns"]]
    game = Game.from_layout(columns, data["foundations"], rule=RULES[data["rule"]])
    return game, data["move"]


def pinned() -> list[tuple[Game, str]]:
    """Every pinned position, with the move the solver found when it was pinned."""
    return [read(line) for line in PINNED.read_text().splitlines() if line.strip()]


def main(samples: int) -> None:
    for rule in RULES.values():
        for shape in SHAPES:
            rng = random.Random(f"small-unique-{rule.letter}-{shape}")
            for _ in range(samples // len(SHAPES)):
                game = random_position(rule, rng, shape)
                if game is None:
                    continue
                move = only_winner(game)
                if move is not None:
                    print(json.dumps({**layout_of(game), "move": move}), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))
