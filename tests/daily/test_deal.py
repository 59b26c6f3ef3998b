"""The daily deal: keyed by the date, the same for everybody, proven winnable, chosen once."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import daily, deals
from games.engine import CLASSIC, GameCode
from games.engine.solver import solve
from games.models import DailyDeal, Game
from tests.daily.helpers import DAY, at


def test_candidates_depend_on_the_date_and_the_key() -> None:
    first = daily.candidate_number(DAY, 0)
    assert first == daily.candidate_number(DAY, 0)
    assert first != daily.candidate_number(DAY + timedelta(days=1), 0)
    assert first != daily.candidate_number(DAY, 1)
    assert first != daily.candidate_number(DAY, 0, key=b"another deployment's key")


def test_unproven_candidates_are_skipped() -> None:
    proven = GameCode(CLASSIC, daily.candidate_number(DAY, 2))

    def check(code: GameCode) -> daily.Proof:
        return ("winnable" if code == proven else "unknown"), 10

    choice = daily.choose(DAY, check)
    assert (choice.candidate, choice.number, choice.verdict) == (2, proven.number, "winnable")
    assert choice.nodes == 30


@pytest.mark.django_db
def test_the_deal_is_proven_winnable_and_chosen_once() -> None:
    deal = daily.deal_for(DAY)
    assert deal.verdict == "winnable"
    engine = deals.new_game(daily.code_of(deal))
    # An optional setting (games.daily reads it with a default), set by conftest.
    budget = settings.DAILY_SOLVER_NODES  # type: ignore[misc]
    assert solve(engine, node_budget=budget).verdict == "winnable"

    def must_not_run(code: GameCode) -> daily.Proof:
        raise AssertionError("the stored deal is reused")

    assert daily.deal_for(DAY, must_not_run).number == deal.number
    assert DailyDeal.objects.count() == 1


def test_the_deal_is_identical_for_two_players(
    clock: time_machine.Traveller, alice_api: APIClient, bob_api: APIClient
) -> None:
    mine = alice_api.post("/api/v1/daily/play").json()
    theirs = bob_api.post("/api/v1/daily/play").json()
    assert mine["columns"] == theirs["columns"]
    assert mine["daily"] == theirs["daily"] == DAY.isoformat()
    assert mine["ranked"] and theirs["ranked"]
    codes = set(Game.objects.values_list("code", flat=True))
    assert codes == {str(daily.code_of(DailyDeal.objects.get(date=DAY)))}


def test_only_the_first_attempt_is_ranked(
    clock: time_machine.Traveller, alice: User, alice_api: APIClient
) -> None:
    first = alice_api.post("/api/v1/daily/play").json()
    alice_api.post(f"/api/v1/games/{first['id']}/resign", {"version": 0}, format="json")
    second = alice_api.post("/api/v1/daily/play").json()  # once the ranked attempt has ended
    assert (first["ranked"], second["ranked"]) == (True, False)
    today = alice_api.get("/api/v1/daily").json()
    assert today["ranked_game"] == first["id"]
    assert [a["game"] for a in today["attempts"]] == [first["id"], second["id"]]
    ranking = alice_api.get(f"/api/v1/daily/{DAY}").json()
    assert [row["game"] for row in ranking["results"]] == [first["id"]]


def test_a_ranked_game_is_frozen_once_its_day_closes(
    clock: time_machine.Traveller, alice_api: APIClient, bob_api: APIClient
) -> None:
    ranked = alice_api.post("/api/v1/daily/play").json()
    ended = bob_api.post("/api/v1/daily/play").json()
    bob_api.post(f"/api/v1/games/{ended['id']}/resign", {"version": 0}, format="json")
    practice = bob_api.post("/api/v1/daily/play").json()
    clock.move_to(at(DAY + timedelta(days=1), hour=0))
    refused, accepted = (
        client.post(
            f"/api/v1/games/{game['id']}/moves",
            {"move": game["legal_moves"][0], "version": 0},
            format="json",
        )
        for client, game in ((alice_api, ranked), (bob_api, practice))
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "daily-closed"
    assert accepted.status_code == 200, accepted.content
