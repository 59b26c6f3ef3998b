"""Fair by construction: a running arena's deals are secret and help-free for everyone, one
seat per player, guests and marked accounts off the table, ordinary statistics untouched."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts import moderation
from accounts.guests import create_guest
from games import services
from games.analysis import jobs
from games.analysis.models import GameAnalysis
from games.arenas import play, standings
from games.arenas.models import Seat
from games.models import Game, PlayerStats, Result
from tests.support.arenas import Clock, arena_on_known_deals, current, play_some, win_current
from tests.support.play import post, token_client, winning_line
from tests.support.races import ok, refused

pytestmark = pytest.mark.django_db


def test_no_code_board_log_analysis_or_help_on_a_running_arenas_deal(
    clock: Clock, alice: User, bob: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    play.join(bob, arena)
    mine = play_some(alice, arena, 2)
    theirs = current(bob, arena)

    assert ok(alice_api.get(f"/api/v1/games/{mine.pk}"))["code"] is None
    assert ok(alice_api.get(f"/api/v1/arenas/{arena.pk}"))["codes"] is None
    refused(alice_api.get(f"/api/v1/games/{theirs.pk}"), 403, "arena-in-progress")
    for path in ("log", "replay", "analysis"):
        refused(alice_api.get(f"/api/v1/games/{mine.pk}/{path}"), 403, "arena-in-progress")
    for path in ("hint", "winnability"):
        answer = post(alice_api, f"/api/v1/games/{mine.pk}/{path}", {"version": mine.version})
        refused(answer, 403, "no-assists-in-arenas")
    retry = post(alice_api, f"/api/v1/games/{mine.pk}/retry", {"version": 1})
    refused(retry, 403, "arena-in-progress")
    # The same deal typed as an ordinary game: the solver's help on it waits for the end.
    typed = services.start_game(alice, code=winning_line()[0])
    refused(post(alice_api, f"/api/v1/games/{typed.pk}/hint", {"version": 0}), 409, "deal-in-play")

    clock.move(minutes=30)
    assert ok(alice_api.get(f"/api/v1/arenas/{arena.pk}"))["codes"] == [winning_line()[0]] * 10
    assert ok(alice_api.get(f"/api/v1/games/{theirs.pk}"))["code"] == winning_line()[0]
    ok(alice_api.get(f"/api/v1/games/{theirs.pk}/log"))


def mark(player: User) -> None:
    staff = User.objects.create_user("staff", password="x" * 12, is_staff=True)
    moderation.mark(player, by=staff, reason="arena test")


def test_guests_and_marked_accounts_play_but_hold_no_rank(
    clock: Clock, alice: User, bob: User, carol: User
) -> None:
    guest = create_guest()
    arena = arena_on_known_deals()
    for player in (alice, bob, carol, guest):
        play.join(player, arena)
    win_current(guest, arena)
    win_current(bob, arena)
    mark(bob)
    win_current(alice, arena)

    live = play.standings_for(arena, guest, 1)
    assert [row["username"] for row in live["rows"]] == ["alice", "carol"]
    assert live["players"] == 4 and live["mine"] is not None
    assert live["mine"]["rank"] is None and live["mine"]["points"] == 2

    clock.move(minutes=30)
    final = play.standings_for(arena, None, 1)
    assert [row["username"] for row in final["rows"]] == ["alice", "carol"]
    ranks = {seat.player_id: seat.rank for seat in Seat.objects.filter(arena=arena)}
    assert ranks == {alice.pk: 1, carol.pk: 2, bob.pk: None, guest.pk: None}
    assert standings.record(alice.pk) == {"played": 1, "podiums": 1, "best_rank": 1}
    assert standings.record(bob.pk) == {"played": 1, "podiums": 0, "best_rank": None}


def test_arena_games_count_in_no_ordinary_statistics(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    win_current(alice, arena)
    win_current(alice, arena)

    assert not Result.objects.filter(player=alice).exists()
    assert not PlayerStats.objects.filter(player=alice, wins__gt=0).exists()
    board = ok(APIClient().get("/api/v1/leaderboards/wins", {"rule": "C"}))["results"]
    assert all(row["username"] != "alice" for row in board)
    assert Game.objects.filter(owner=alice, origin="arena", status="won").count() == 2
    profile = ok(alice_api.get("/api/v1/players/alice"))
    assert profile["arenas"] == {"played": 0, "podiums": 0, "best_rank": None}
    assert profile["stats"]["C"]["wins"] == 0


def test_one_seat_per_player_even_with_a_second_token(clock: Clock, alice: User) -> None:
    arena = arena_on_known_deals()
    ok(post(token_client(alice), f"/api/v1/arenas/{arena.pk}/join", {}), 201)

    again = post(token_client(alice), f"/api/v1/arenas/{arena.pk}/join", {})
    refused(again, 409, "arena-already-joined")
    assert Seat.objects.filter(arena=arena).count() == 1


def test_a_players_games_are_their_own_until_the_end_then_everyones(
    clock: Clock, alice: User, bob: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    play.join(bob, arena)
    win_current(alice, arena)
    win_current(bob, arena)
    path = f"/api/v1/arenas/{arena.pk}/games"

    mine = ok(alice_api.get(path, {"player": "alice"}))
    assert [(g["index"], g["status"], g["points"], g["code"]) for g in mine] == [
        (0, "won", 2, None),
        (1, "active", None, None),
    ]
    refused(alice_api.get(path, {"player": "bob"}), 403, "arena-in-progress")
    refused(APIClient().get(path, {"player": "alice"}), 403, "arena-in-progress")
    refused(alice_api.get(path, {"player": "carol"}), 409, "not-in-arena")

    clock.move(minutes=30)
    theirs = ok(APIClient().get(path, {"player": "bob"}))
    assert [(g["status"], g["points"], g["code"]) for g in theirs] == [
        ("won", 2, winning_line()[0]),
        ("abandoned", 0, winning_line()[0]),
    ]
    ok(alice_api.get(f"/api/v1/games/{theirs[0]['game']}/replay"))


def test_an_arena_games_analysis_is_queued_once_the_arena_is_over(
    clock: Clock, alice: User
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    won = win_current(alice, arena)
    assert not GameAnalysis.objects.exists()  # nobody may read it yet: no CPU spent on it
    assert jobs.enqueue_ended_arenas() == 0

    clock.move(minutes=30)
    play.settle(arena.pk)

    assert jobs.enqueue_ended_arenas() == 2  # the won game and the one the end closed
    assert GameAnalysis.objects.filter(game=won).exists()
    assert jobs.enqueue_ended_arenas() == 0
