"""Engine speed figures: ``python -m games.engine.bench [--json]``.

Measures full legal-move generation on mid-game positions, push/pop pairs,
and replaying a 300-entry move log from its code, on fixed deals so runs
compare. A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from .codes import GameCode
from .deal import DEV_DEAL_KEY
from .game import Game
from .moves import Move
from .native import status
from .replay import UNDO_ENTRY, replay
from .rules import CLASSIC, RELAXED


def mid_game_positions(count: int = 40, plies: int = 40, seed: int = 7) -> list[Game]:
    """Positions reached by seeded random play that prefers progress."""
    rng = random.Random(seed)
    positions: list[Game] = []
    while len(positions) < count:
        rule = CLASSIC if len(positions) % 4 else RELAXED
        game = Game.new(GameCode(rule, rng.randrange(26**7)), DEV_DEAL_KEY)
        for _ in range(plies):
            moves = list(game.legal_moves)
            if not moves:
                break
            game.push(rng.choice(moves))
        if game.legal_moves and not game.won:
            positions.append(game)
    return positions


def long_log(length: int = 300, seed: int = 11) -> tuple[GameCode, list[str]]:
    """A seeded random game log of exactly ``length`` entries, some of them undos."""
    rng = random.Random(seed)
    while True:
        code = GameCode(CLASSIC, rng.randrange(26**7))
        game = Game.new(code, DEV_DEAL_KEY)
        log: list[str] = []
        while len(log) < length:
            if game.undo_depth and rng.random() < 0.05:
                game.undo()
                log.append(UNDO_ENTRY)
                continue
            moves = list(game.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            game.play(move)
            log.append(str(move))
        if len(log) == length:
            return code, log


def _rate(action: Callable[[], int], seconds: float) -> float:
    """Operations per second of ``action`` (which returns how many it did)."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += action()
    return done / elapsed


def push_pop_pairs() -> list[tuple[Game, list[Move]]]:
    """The mid-game positions, each with its legal moves, for :func:`push_pop_round`."""
    return [(game, list(game.legal_moves)) for game in mid_game_positions()]


def push_pop_round(pairs: list[tuple[Game, list[Move]]]) -> int:
    """Push and pop every legal move of every position once; how many pairs that was."""
    done = 0
    for game, moves in pairs:
        for move in moves:
            game.push(move)
            game.pop()
        done += len(moves)
    return done


def run_until(pairs: list[tuple[Game, list[Move]]], seconds: float) -> int:
    """Push/pop rounds for about ``seconds``; how many pairs were made."""
    done = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        done += push_pop_round(pairs)
    return done


def measure(seconds: float = 1.0) -> dict[str, float]:
    """The figures, keyed by name."""
    positions = mid_game_positions()
    average_moves = sum(p.legal_moves.count() for p in positions) / len(positions)

    def generate() -> int:
        for game in positions:
            list(game.legal_moves)
        return len(positions)

    pairs = push_pop_pairs()

    def push_pop() -> int:
        return push_pop_round(pairs)

    code, log = long_log()

    def replays() -> int:
        replay(code, DEV_DEAL_KEY, log)
        return 1

    def deals() -> int:
        Game.new(code, DEV_DEAL_KEY)
        return 1

    replay_rate = _rate(replays, seconds)
    return {
        "legal_move_generations_per_s": round(_rate(generate, seconds)),
        "average_legal_moves": round(average_moves, 1),
        "push_pop_pairs_per_s": round(_rate(push_pop, seconds)),
        "replay_300_ms": round(1000 / replay_rate, 3),
        "new_game_deals_per_s": round(_rate(deals, seconds)),
    }


def main(argv: list[str] | None = None) -> None:
    """Print the figures as a table (and, with ``--json``, a final JSON line)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per figure")
    args = parser.parse_args(argv)
    print(f"engine: {status()}")
    figures = measure(args.seconds)
    targets = {
        "legal_move_generations_per_s": ">= 100000",
        "push_pop_pairs_per_s": ">= 200000",
        "replay_300_ms": "< 2",
    }
    print(f"{'figure':<32} {'value':>12}  target")
    for name, value in figures.items():
        print(f"{name:<32} {value:>12,}  {targets.get(name, '')}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
