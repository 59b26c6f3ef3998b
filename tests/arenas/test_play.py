"""Playing an arena: join, deal after deal, the seat's score, the end and its settlement."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.arenas import play, standings
from games.arenas.models import Arena, ArenaGame, Seat
from games.models import Game
from tests.support.arenas import (
    T0,
    Clock,
    arena_on_known_deals,
    current,
    play_some,
    resign_current,
    win_current,
)
from tests.support.play import post, winning_line
from tests.support.races import ok

pytestmark = pytest.mark.django_db


def test_join_deals_the_first_deal_and_each_end_deals_the_next(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    clock.move(minutes=1)

    joined = ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 201)

    first = joined["game"]
    assert first["code"] is None and first["origin"] == "arena" and first["version"] == 0
    assert ok(alice_api.get(f"/api/v1/arenas/{arena.pk}/game"))["id"] == first["id"]
    win_current(alice, arena)
    second = ok(alice_api.get(f"/api/v1/arenas/{arena.pk}/game"))
    assert second["id"] != first["id"] and second["status"] == "active"
    assert ArenaGame.objects.get(game_id=second["id"]).index == 1
    seat = Seat.objects.get(arena=arena, player=alice)
    assert (seat.points, seat.wins, seat.in_a_row, seat.games_ended) == (2, 1, 1, 1)


def test_a_streak_scores_four_and_a_resignation_ends_it(clock: Clock, alice: User) -> None:
    arena = arena_on_known_deals(starts_at=T0 + timedelta(seconds=1))
    play.join(alice, arena)  # joined before the start: the first deal comes at the start
    assert not ArenaGame.objects.exists()
    clock.move(seconds=1)
    play.current_game(alice, arena)  # the start: deal 1

    for _ in range(3):
        win_current(alice, arena)
    seat = Seat.objects.get(arena=arena, player=alice)
    assert (seat.points, seat.in_a_row) == (8, 3)
    play_some(alice, arena, 4)
    resign_current(alice, arena)  # before 5 moves: 0, and the streak is over
    win_current(alice, arena)

    seat.refresh_from_db()
    assert (seat.points, seat.wins, seat.in_a_row, seat.games_ended) == (10, 4, 1, 5)


def test_without_undo_is_chosen_before_the_first_move_and_adds_one_to_a_win(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 201)

    ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/without-undo", {}))
    game = play_some(alice, arena, 1)
    undo = post(alice_api, f"/api/v1/games/{game.pk}/undo", {"version": game.version})
    assert undo.status_code == 409 and undo.json()["error"]["code"] == "undo-off"
    win_current(alice, arena)

    assert Seat.objects.get(arena=arena, player=alice).points == 3
    play_some(alice, arena, 1)
    late = post(alice_api, f"/api/v1/arenas/{arena.pk}/without-undo", {})
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "game-already-started"


def test_the_end_closes_open_games_and_counts_their_points_up_to_then(
    clock: Clock, alice: User, bob: User
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    play.join(bob, arena)
    win_current(alice, arena)
    near = len(winning_line()[1]) - 3  # most cards home: a near win when the arena ends
    play_some(alice, arena, near)
    assert current(alice, arena).cards_on_foundations >= 26
    play_some(bob, arena, 10)
    clock.move(minutes=30)  # exactly the end

    state = play.describe(arena, None)

    assert state["status"] == "finished" and state["codes"] == [winning_line()[0]] * 10
    assert not Game.objects.filter(arena_game__seat__arena=arena, status="active").exists()
    assert not Game.objects.filter(arena_game__seat__arena=arena, race_hidden=True).exists()
    alice_seat = Seat.objects.get(arena=arena, player=alice)
    bob_seat = Seat.objects.get(arena=arena, player=bob)
    assert (alice_seat.points, alice_seat.rank, alice_seat.active) == (3, 1, False)
    assert (bob_seat.points, bob_seat.rank) == (0, 2)
    assert standings.final_ranks(arena) == {alice_seat.pk: 1, bob_seat.pk: 2}


#: A Relaxed deal (development key) whose move 2H>2 leaves no legal move: checked by the test.
STUCK_DEAL, STUCK_MOVE = "YU1-U-AAAAAAD", "2H>2"


def test_a_game_with_no_move_left_ends_and_the_next_deal_follows(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    Arena.objects.filter(pk=arena.pk).update(rule="U", deals=[STUCK_DEAL] * 3)
    arena.refresh_from_db()
    first = ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 201)["game"]

    answer = ok(
        post(alice_api, f"/api/v1/games/{first['id']}/moves", {"move": STUCK_MOVE, "version": 0})
    )

    assert answer["status"] == "abandoned" and answer["legal_moves"] == []
    second = ok(alice_api.get(f"/api/v1/arenas/{arena.pk}/game"))
    assert second["id"] != first["id"] and second["status"] == "active"
    seat = Seat.objects.get(arena=arena, player=alice)
    assert (seat.games_ended, seat.points) == (1, 0)


def test_the_standings_page_the_table_and_show_the_viewers_neighbours(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    players = [User.objects.create_user(f"p{n:02}", password="x" * 12) for n in range(12)]
    for player in [*players, alice]:
        play.join(player, arena)
    for player in players[:3]:
        win_current(player, arena)
    clock.move(minutes=10)

    first = ok(alice_api.get(f"/api/v1/arenas/{arena.pk}/standings"))
    second = ok(alice_api.get(f"/api/v1/arenas/{arena.pk}/standings", {"page": 2}))

    assert (first["players"], first["ranked"], first["pages"]) == (13, 13, 2)
    assert first["seconds_left"] == 20 * 60 and first["status"] == "running"
    # Three winners ahead (among them, less total time first), then everyone else.
    assert {row["username"] for row in first["rows"][:3]} == {"p00", "p01", "p02"}
    times = [row["time_ms"] for row in first["rows"][:3]]
    assert times == sorted(times)
    assert [row["rank"] for row in first["rows"]] == list(range(1, 11))
    assert [row["rank"] for row in second["rows"]] == [11, 12, 13]
    mine = first["mine"]
    assert mine["rank"] == 13 and mine["game"] == current(alice, arena).pk
    assert [row["rank"] for row in first["around"]] == [11, 12, 13]
    spectator = ok(APIClient().get(f"/api/v1/arenas/{arena.pk}/standings"))
    assert spectator["mine"] is None and spectator["around"] == []


def test_the_janitor_settles_an_arena_nobody_touched_after_its_end(
    clock: Clock, alice: User
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    win_current(alice, arena)
    clock.move(minutes=29)
    assert play.settle_ended(clock.now()) == 0

    clock.move(minutes=1)

    assert play.settle_ended(clock.now()) == 1
    arena.refresh_from_db()
    assert arena.finished_at == clock.now()
    assert Seat.objects.get(arena=arena).rank == 1
    assert play.settle_ended(clock.now()) == 0
