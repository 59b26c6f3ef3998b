"""Russian (U) and Alaska (A) through the API: new games, codes, refusals, boards, dailies, races.

The wins are real: a known winning line per variant (tests/support/variant_wins.txt) played
through the move service, its last move through the endpoint.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import daily, deals
from games.engine import ALASKA, DEV_DEAL_KEY, RUSSIAN, Game, GameCode, Move, Rule
from games.engine.solver import solve
from games.models import Game as GameRow
from games.models import VariantDailyDeal
from tests.daily.helpers import DAY, at
from tests.support.play import (
    new_game,
    post,
    suit_only_refusal,
    token_client,
    variant_winning_line,
)
from tests.support.races import my_game, ok, play_direct, play_line, refused, running_race
from tests.support.tasks import run_queued_tasks

VARIANTS = [RUSSIAN, ALASKA]


def won_by_line(player: User, client: APIClient, letter: str) -> dict[str, Any]:
    """A new game on the variant's known deal, won: the line through the service, the last
    move through the endpoint (so the result is recorded as any API win is)."""
    code, line = variant_winning_line(letter)
    game = new_game(client, code=code)
    version = play_direct(player, game["id"], line[:-1])
    return dict(
        ok(
            post(
                client, f"/api/v1/games/{game['id']}/moves", {"move": line[-1], "version": version}
            )
        )
    )


@pytest.mark.django_db
@pytest.mark.parametrize("rule", VARIANTS, ids=["russian", "alaska"])
def test_a_new_game_of_each_variant(alice_api: APIClient, rule: Rule) -> None:
    for asked in (rule.letter, rule.letter.lower()):
        state = new_game(alice_api, rule=asked)
        assert state["rule"] == rule.letter and state["code"].startswith(f"YU1-{rule.letter}-")
        assert [column["face_down"] for column in state["columns"]] == [0, 1, 2, 3, 4, 5, 6]
        engine = deals.current(GameRow.objects.get(pk=state["id"]))
        assert sorted(state["legal_moves"]) == sorted(str(move) for move in engine.legal_moves)


@pytest.mark.django_db
@pytest.mark.parametrize("rule", VARIANTS, ids=["russian", "alaska"])
def test_a_variant_code_round_trips_with_the_classic_cards(
    alice_api: APIClient, rule: Rule
) -> None:
    code = f"YU1-{rule.letter}-AAAAAAQ"
    state = new_game(alice_api, code=code.lower())
    assert state["code"] == code and state["rule"] == rule.letter
    assert ok(alice_api.get(f"/api/v1/games/{state['id']}"))["code"] == code
    classic = new_game(alice_api, code="YU1-C-AAAAAAQ")
    assert state["columns"] == classic["columns"]
    refused(post(alice_api, "/api/v1/games", {"code": code, "rule": "C"}), 400, "rule-mismatch")


@pytest.mark.django_db
def test_an_unknown_rule_letter_is_refused(alice_api: APIClient) -> None:
    refused(post(alice_api, "/api/v1/games", {"code": "YU1-X-AAAAAAQ"}), 400, "code-rule")
    response = post(alice_api, "/api/v1/games", {"rule": "X"})
    assert response.status_code == 400 and "rule" in response.json()["error"]["fields"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_russian_refuses_another_suit_naming_the_rule(alice_api: APIClient, language: str) -> None:
    code, move = suit_only_refusal(RUSSIAN)
    game = new_game(alice_api, code=code)
    response = alice_api.post(
        f"/api/v1/games/{game['id']}/moves",
        {"move": move, "version": 0},
        format="json",
        headers={"accept-language": language},
    )
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert (error["code"], error["rule"]) == ("wrong-suit", "build")
    assert f"{Move.parse(move).to + 1}" in error["message"]
    if language == "en":
        assert "same suit" in error["message"]
    else:
        assert "Farbe" in error["message"] and "suit" not in error["message"]


@pytest.mark.django_db
def test_alaska_builds_up_where_russian_refuses(alice_api: APIClient) -> None:
    """The same cards, the same move: one rank up in the same suit is Alaska's only."""
    for number in range(1, 200):
        game = Game.new(GameCode(ALASKA, number), DEV_DEAL_KEY)
        up = [str(move) for move in game.legal_moves if _builds_up(game, move)]
        if up:
            break
    else:
        raise AssertionError("no upward build at the start of 199 Alaska deals")
    alaska = new_game(alice_api, code=str(GameCode(ALASKA, number)))
    assert up[0] in alaska["legal_moves"]
    russian = new_game(alice_api, code=str(GameCode(RUSSIAN, number)))
    assert up[0] not in russian["legal_moves"]
    response = post(
        alice_api, f"/api/v1/games/{russian['id']}/moves", {"move": up[0], "version": 0}
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "wrong-rank"


def _builds_up(game: Game, move: Move) -> bool:
    """A move onto a column's last card one rank below the moved card."""
    if move.to_foundation:
        return False
    target = game.column(move.to).face_up
    return bool(target) and target[-1].rank - move.card.rank == -1


@pytest.mark.django_db
@pytest.mark.parametrize("letter", ["U", "A"])
def test_a_variant_win_counts_on_its_own_boards_and_stats(
    alice: User, alice_api: APIClient, letter: str
) -> None:
    won = won_by_line(alice, alice_api, letter)
    assert won["status"] == "won" and won["score"] == 625
    public = APIClient()
    wins = ok(public.get("/api/v1/leaderboards/wins", {"rule": letter}))
    assert [(row["player"], row["wins"]) for row in wins["results"]] == [("alice", 1)]
    fewest = ok(public.get("/api/v1/leaderboards/fewest-moves", {"rule": letter}))
    assert fewest["results"][0]["fewest_moves"] == won["move_count"]
    assert ok(public.get("/api/v1/leaderboards/wins", {"rule": "C"}))["count"] == 0
    profile = ok(public.get("/api/v1/players/alice"))
    assert set(profile["stats"]) == {"C", "R", "U", "A"}
    assert profile["stats"][letter]["wins"] == 1 and profile["stats"]["C"]["games"] == 0
    history = ok(public.get("/api/v1/players/alice/history", {"rule": letter}))
    assert [row["game"] for row in history["results"]] == [won["id"]]
    assert ok(public.get("/api/v1/players/alice/history", {"rule": "C"}))["count"] == 0


@pytest.mark.django_db
def test_every_variant_line_replays_to_a_win() -> None:
    for letter in ("U", "A"):
        code, line = variant_winning_line(letter)
        engine = Game.new(GameCode.parse(code), DEV_DEAL_KEY)
        for move in line:
            engine.play(Move.parse(move))
        assert engine.cards_on_foundations == 52


# ---- the daily deal per variant -------------------------------------------------------------


@pytest.fixture
def clock() -> Any:
    with time_machine.travel(at(DAY), tick=False) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def small_solver_budget(settings: Any) -> None:
    settings.DAILY_SOLVER_NODES = 20_000
    settings.RACE_COUNTDOWN_SECONDS = 0


@pytest.mark.django_db
def test_a_russian_daily_is_proven_winnable_and_apart_from_the_classic_one(
    clock: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    today = ok(alice_api.get("/api/v1/daily", {"rule": "U"}))
    assert (today["rule"], today["code"], today["players"]) == ("U", None, 0)
    deal = VariantDailyDeal.objects.get(date=DAY, rule="U")
    assert deal.verdict == "winnable"
    engine = deals.new_game(daily.code_of(deal))
    assert solve(engine, node_budget=20_000).verdict == "winnable"
    assert daily.deal_for(DAY, rule=RUSSIAN).number == deal.number  # chosen once

    russian = ok(post(alice_api, "/api/v1/daily/play?rule=U", {}), 201)
    classic = ok(post(alice_api, "/api/v1/daily/play", {}), 201)
    refused(post(alice_api, "/api/v1/daily/play?rule=U", {}), 409, "ranked-attempt-pending")
    ok(post(alice_api, f"/api/v1/games/{russian['id']}/resign", {"version": 0}))
    again = ok(post(alice_api, "/api/v1/daily/play?rule=U", {}), 201)
    assert (russian["ranked"], classic["ranked"], again["ranked"]) == (True, True, False)
    assert russian["rule"] == "U" and classic["rule"] == "C" and russian["code"] is None
    assert GameRow.objects.get(pk=russian["id"]).code == str(daily.code_of(deal))
    bobs = ok(post(bob_api, "/api/v1/daily/play?rule=U", {}), 201)
    assert bobs["columns"] == russian["columns"] != classic["columns"]

    ranking = ok(alice_api.get(f"/api/v1/daily/{DAY}", {"rule": "U"}))
    assert ranking["rule"] == "U" and ranking["sections"]["without_hints"] == 2
    assert {row["game"] for row in ranking["results"]} == {russian["id"], bobs["id"]}
    main = ok(alice_api.get(f"/api/v1/daily/{DAY}"))
    assert main["rule"] == "C" and [row["game"] for row in main["results"]] == [classic["id"]]
    mine = ok(alice_api.get("/api/v1/daily", {"rule": "U"}))
    assert [a["game"] for a in mine["attempts"]] == [russian["id"], again["id"]]


@pytest.mark.django_db
def test_a_variant_daily_search_is_bounded(clock: Any, alice_api: APIClient, settings: Any) -> None:
    """With a budget no candidate can be proven in, the search stops and says so: a 503."""
    settings.DAILY_SOLVER_NODES = 1
    refused(alice_api.get("/api/v1/daily", {"rule": "U"}), 503, "no-daily-deal")
    refused(post(alice_api, "/api/v1/daily/play?rule=U", {}), 503, "no-daily-deal")
    assert not VariantDailyDeal.objects.exists()
    refused(alice_api.get("/api/v1/daily", {"rule": "X"}), 400, "invalid-request")


def test_variant_candidates_differ_from_the_classic_ones() -> None:
    classic = [daily.candidate_number(DAY, n) for n in range(4)]
    russian = [daily.candidate_number(DAY, n, rule=RUSSIAN) for n in range(4)]
    alaska = [daily.candidate_number(DAY, n, rule=ALASKA) for n in range(4)]
    assert len({*classic, *russian, *alaska}) == 12
    assert russian == [daily.candidate_number(DAY, n, rule=RUSSIAN) for n in range(4)]

    calls: list[GameCode] = []

    def never_proven(code: GameCode) -> daily.Proof:
        calls.append(code)
        return "unwinnable", 10

    with pytest.raises(daily.NoDailyDeal):
        daily.choose(DAY, never_proven, RUSSIAN)
    assert len(calls) == daily.VARIANT_MAX_CANDIDATES
    assert {code.rule for code in calls} == {RUSSIAN}


# ---- races ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_russian_race_is_won_and_rated_under_its_rule(
    alice: User, alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    code, line = variant_winning_line("U")
    room = running_race(alice_api, bob_api, server_dealt=True, deal=code, rule="U")
    race = ok(alice_api.get(f"/api/v1/races/{room}"))
    assert race["rule"] == "U" and race["status"] == "running" and race["rated"]
    game_id = my_game(alice_api, room)
    assert GameRow.objects.get(pk=game_id).rule == "U"
    play_direct(bob, my_game(bob_api, room), line[:5])  # enough standing moves to be rated
    version = play_direct(alice, game_id, line[:-1])
    play_line(alice_api, game_id, line[-1:], version)
    final = ok(bob_api.get(f"/api/v1/races/{room}"))
    assert final["status"] == "finished" and final["code"] == code
    board = ok(APIClient().get("/api/v1/races/leaderboard?rule=U"))
    assert [row["player"] for row in board] == ["alice", "bob"]
    assert ok(APIClient().get("/api/v1/races/leaderboard?rule=C")) == []
    queued = ok(post(alice_api, "/api/v1/races/queue", {"rule": "A"}))
    assert queued["rule"] == "A"


# ---- assists, analysis, replays ---------------------------------------------------------------


@pytest.mark.django_db
def test_hints_winnability_and_analysis_follow_the_variant(alice: User) -> None:
    """The solver answers for a Russian game, and analyses it once won, under its own rule."""
    client = token_client(alice)
    code, line = variant_winning_line("U")
    state = new_game(client, code=code)
    assert post(client, f"/api/v1/games/{state['id']}/hint", {}).status_code == 202
    run_queued_tasks("assists")
    hint = ok(post(client, f"/api/v1/games/{state['id']}/hint", {}))
    assert hint["status"] == "winnable" and hint["move"] in state["legal_moves"]
    assert ok(post(client, f"/api/v1/games/{state['id']}/winnability", {}))["status"] == "winnable"

    game = new_game(client, code=code)
    version = play_direct(alice, game["id"], line)
    assert version == len(line)
    run_queued_tasks("analysis")
    report = ok(client.get(f"/api/v1/games/{game['id']}/analysis"))
    assert report["status"] == "done" and report["losing_move"] is None
    assert {v["verdict"] for v in report["verdicts"]} == {"winnable"}


@pytest.mark.django_db
def test_a_closed_russian_day_replays_its_ranked_games(
    clock: Any, alice: User, alice_api: APIClient
) -> None:
    game = ok(post(alice_api, "/api/v1/daily/play?rule=U", {}), 201)
    first = game["legal_moves"][0]
    ok(post(alice_api, f"/api/v1/games/{game['id']}/moves", {"move": first, "version": 0}))
    path = f"/api/v1/daily/{DAY}/games/{game['id']}/replay"
    refused(alice_api.get(path, {"rule": "U"}), 403, "daily-in-progress")
    clock.move_to(at(DAY + timedelta(days=1)))
    replay = ok(alice_api.get(path, {"rule": "U"}))
    assert [step["move"] for step in replay["steps"]] == [None, first]
    assert replay["game"]["code"].startswith("YU1-U-")
    assert alice_api.get(path).status_code == 404  # not a game of the Classic daily
    ranking = ok(alice_api.get(f"/api/v1/daily/{DAY}", {"rule": "U"}))
    assert ranking["code"] == replay["game"]["code"] and not ranking["open"]
