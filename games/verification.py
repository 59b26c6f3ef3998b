"""Prove stored snapshots equal a replay of their move logs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from games import deals
from games.engine import YukonError
from games.models import Game


@dataclass(frozen=True)
class Mismatch:
    game_id: int
    problem: str


def check_game(game: Game) -> str | None:
    """What is wrong with one stored game, or None when snapshot, counters and log agree."""
    entries = list(game.log.order_by("seq").values_list("seq", "text", "score_after"))
    expected_seqs = list(range(1, len(entries) + 1))
    if [seq for seq, _, _ in entries] != expected_seqs:
        return "the log has a gap or a duplicate sequence number"
    try:
        replayed = deals.replayed(game, [t for _, t, _ in entries])
    except YukonError as error:
        return f"the log does not replay: {error.message}"
    if replayed != deals.current(game):
        return "the stored snapshot differs from a replay of the log"
    counters = (game.score, game.move_count, game.cards_on_foundations)
    if counters != (replayed.score, replayed.move_count, replayed.cards_on_foundations):
        return f"stored counters {counters} differ from the replay"
    if entries and entries[-1][2] != replayed.score:
        return "the last log entry's score differs from the replay"
    if (game.status == Game.Status.WON) != replayed.won:
        return "the stored status disagrees with the replay about the win"
    return None


def verify_all() -> Iterator[Mismatch]:
    for game in Game.objects.order_by("pk").iterator(chunk_size=200):
        problem = check_game(game)
        if problem is not None:
            yield Mismatch(game.pk, problem)
