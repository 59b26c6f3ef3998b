"""Post-game analysis: queued when a game ends, verdicts per version, the losing move, the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import deals, services
from games.analysis import jobs
from games.analysis.models import GameAnalysis, PositionVerdict
from games.engine import Move
from games.engine.solver import solve
from games.models import Game
from tests.support.analysis import lost_game
from tests.support.play import token_client, winning_line
from tests.support.tasks import run_queued_tasks

BUDGET = 5_000
#: The lost game's analysis needs more to decide the positions near the losing move.
DECISIVE = 50_000


def analysis(client: APIClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}/analysis")
    assert response.status_code == 200, response.content
    return dict(response.json())


@pytest.mark.django_db
def test_a_won_game_is_winnable_at_every_version_and_measured_against_the_solver(
    alice: User,
) -> None:
    code, line = winning_line()
    game = services.start_game(alice, code=code)
    for move in line:
        game = services.play_move(alice, game.pk, move=move, version=game.version).game
    assert game.status == Game.Status.WON
    client = token_client(alice)
    assert analysis(client, game.pk)["status"] == "pending"
    run_queued_tasks()
    report = analysis(client, game.pk)
    assert report["status"] == "done"
    assert [v["version"] for v in report["verdicts"]] == list(range(len(line) + 1))
    assert {v["verdict"] for v in report["verdicts"]} == {"winnable"}
    assert report["losing_move"] is None
    assert report["shortest_line"] <= len(line)
    assert report["extra_moves"] == len(line) - report["shortest_line"]


@pytest.mark.django_db
def test_a_lost_game_names_the_losing_move_and_a_move_that_kept_it_winnable(
    alice: User, settings: Any
) -> None:
    settings.ANALYSIS_POSITION_NODES = DECISIVE
    game = lost_game(alice)
    run_queued_tasks()
    report = analysis(token_client(alice), game.pk)
    assert report["status"] == "done"
    losing = report["losing_move"]
    assert losing is not None, " ".join(v["verdict"] for v in report["verdicts"])
    verdicts = {v["version"]: v["verdict"] for v in report["verdicts"]}
    assert verdicts[losing["version"] - 1] == "winnable"
    assert {verdicts[v] for v in verdicts if v >= losing["version"]} == {"unwinnable"}
    texts = list(game.log.order_by("seq").values_list("text", flat=True))
    assert texts[losing["version"] - 1] == losing["move"]
    before = deals.replayed(game, texts[: losing["version"] - 1])
    after_losing = deals.replayed(game, texts[: losing["version"]])
    assert solve(after_losing, node_budget=DECISIVE).verdict == "unwinnable"
    before.play(Move.parse(losing["better_move"]))
    assert solve(before, node_budget=DECISIVE).verdict == "winnable"
    assert losing["better_board"]["move_count"] == before.move_count


@pytest.mark.django_db
def test_analysis_states_go_from_not_finished_to_pending_partial_and_done(
    alice: User, settings: Any
) -> None:
    settings.ANALYSIS_CHUNK_POSITIONS = 1
    game = lost_game(alice)
    client = token_client(alice)
    active = services.start_game(alice)
    assert analysis(client, active.pk)["status"] == "not-finished"
    assert analysis(client, game.pk)["status"] == "pending"
    assert jobs.run_step(game.pk, "worker-a") is True  # the turning point comes first
    partial = analysis(client, game.pk)
    assert partial["status"] == "partial" and partial["verdicts"]
    assert partial["turning"] != "pending"
    run_queued_tasks()
    assert analysis(client, game.pk)["status"] == "done"


@pytest.mark.django_db
def test_a_game_held_by_a_live_worker_is_not_analysed_by_another(alice: User) -> None:
    game = lost_game(alice)
    GameAnalysis.objects.filter(pk=game.pk).update(
        status=GameAnalysis.Status.RUNNING, worker="worker-a", heartbeat_at=game.finished_at
    )
    jobs._still_mine(GameAnalysis.objects.get(pk=game.pk))  # worker-a's heartbeat: now
    assert jobs.run_step(game.pk, "worker-b") is False
    assert not PositionVerdict.objects.filter(game=game).exists()
    assert GameAnalysis.objects.get(pk=game.pk).worker == "worker-a"


@pytest.mark.django_db
def test_someone_elses_running_daily_has_no_analysis_to_show(alice: User, bob: User) -> None:
    game = services.start_game(alice, daily=True)
    game = services.resign(alice, game.pk, version=game.version).game
    refused = token_client(bob).get(f"/api/v1/games/{game.pk}/analysis")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "daily-in-progress"
    assert analysis(token_client(alice), game.pk)["status"] == "pending"
