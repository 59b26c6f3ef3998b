"""games/deals.py: the one place that reads the deal key and replays a stored game's log."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from games import deals, services
from games.engine import UNDO_ENTRY, GameCode, replay
from games.engine import Game as EngineGame
from games.models import Game
from tests.support.play import winning_line


def test_a_new_game_is_dealt_with_the_deployments_key() -> None:
    code, _ = winning_line()
    assert deals.new_game(GameCode.parse(code)) == EngineGame.new(
        GameCode.parse(code), bytes(settings.DEAL_KEY)
    )


def test_replay_steps_yield_every_entry_and_end_where_the_engine_replay_ends() -> None:
    code, line = winning_line()
    log = [line[0], UNDO_ENTRY, *line[:3]]
    steps = [
        (step.text, step.result is None, step.engine.move_count)
        for step in deals.replay_steps(deals.new_game(GameCode.parse(code)), log)
    ]
    assert steps == [
        (line[0], False, 1),
        (UNDO_ENTRY, True, 1),
        *[(t, False, n + 2) for n, t in enumerate(line[:3])],
    ]
    engine = deals.new_game(GameCode.parse(code))
    for _ in deals.replay_steps(engine, log):
        pass
    assert engine == replay(GameCode.parse(code), deals.deal_key(), log)


@pytest.mark.django_db
def test_a_stored_games_log_replays_to_its_snapshot(alice: User) -> None:
    code, line = winning_line()
    game = services.start_game(alice, code=code)
    for version, move in enumerate(line[:4]):
        services.play_move(alice, game.pk, move=move, version=version)
    services.undo(alice, game.pk, version=4)
    game = Game.objects.get(pk=game.pk)
    log = list(game.log.order_by("seq").values_list("text", flat=True))
    assert deals.replayed(game, log) == deals.current(game)
