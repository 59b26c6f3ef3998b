"""Every bad input an arena owes a clear answer: late joins, two joins at once, a move in the
same millisecond as the end, two arenas, a guessed private link, and the rest."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from games import services
from games.arenas import play, points, standings
from games.arenas.errors import ArenaOver
from games.arenas.models import Seat
from games.models import Game
from tests.support.arenas import T0, Clock, arena_on_known_deals, current, play_some
from tests.support.play import post, token_client, winning_line
from tests.support.races import ok, refused


@pytest.mark.django_db
def test_joining_at_or_after_the_end_is_arena_over(clock: Clock, alice_api: APIClient) -> None:
    arena = arena_on_known_deals()
    clock.move(minutes=30)  # the end, to the millisecond

    refused(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 409, "arena-over")
    clock.move(hours=1)
    refused(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 409, "arena-over")


@pytest.mark.django_db
def test_a_move_in_the_same_millisecond_as_the_end_is_refused_and_the_game_closes(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    game = play_some(alice, arena, 3)
    clock.at = arena.ends_at - timedelta(milliseconds=1)
    game = play_some(alice, arena, 1)  # the last millisecond still plays
    assert game.version == 4
    clock.at = arena.ends_at

    move = winning_line()[1][4]
    answer = post(alice_api, f"/api/v1/games/{game.pk}/moves", {"move": move, "version": 4})

    refused(answer, 409, "arena-over")
    game.refresh_from_db()
    assert game.move_count == 4 and game.status == Game.Status.ABANDONED  # closed by the end
    assert ok(alice_api.get(f"/api/v1/arenas/{arena.pk}"))["status"] == "finished"


@pytest.mark.django_db
def test_every_write_after_the_end_is_arena_over(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals()
    play.join(alice, arena)
    game = play_some(alice, arena, 2)
    clock.move(minutes=31)
    base = f"/api/v1/games/{game.pk}"

    writes: list[tuple[str, dict[str, Any]]] = [
        ("moves", {"move": winning_line()[1][2], "version": 2}),
        ("undo", {"version": 2}),
        ("resign", {"version": 2}),
    ]
    for path, body in writes:
        refused(post(alice_api, f"{base}/{path}", body), 409, "arena-over")
    refused(post(alice_api, f"/api/v1/arenas/{arena.pk}/without-undo", {}), 409, "arena-over")


@pytest.mark.django_db(transaction=True)
def test_two_joins_at_the_same_moment_make_one_seat(clock: Clock, alice: User) -> None:
    arena = arena_on_known_deals()
    barrier = threading.Barrier(2)
    answers: list[int] = []
    client = token_client(alice)

    def join() -> None:
        try:
            barrier.wait()
            answers.append(post(client, f"/api/v1/arenas/{arena.pk}/join", {}).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=join) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [201, 409]
    assert Seat.objects.filter(arena=arena, player=alice).count() == 1
    assert Game.objects.filter(owner=alice, origin="arena").count() == 1


@pytest.mark.django_db(transaction=True)
def test_joins_of_two_arenas_at_the_same_moment_give_one_seat(clock: Clock, alice: User) -> None:
    arenas = [arena_on_known_deals(), arena_on_known_deals()]
    barrier = threading.Barrier(2)
    answers: list[tuple[int, str]] = []
    client = token_client(alice)

    def join(arena_id: int) -> None:
        try:
            barrier.wait()
            response = post(client, f"/api/v1/arenas/{arena_id}/join", {})
            code = response.json()["error"]["code"] if response.status_code != 201 else ""
            answers.append((response.status_code, code))
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(arena.pk,)) for arena in arenas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [(201, ""), (409, "in-another-arena")]
    assert Seat.objects.filter(player=alice).count() == 1


@pytest.mark.django_db
def test_a_player_is_in_one_arena_not_over_at_a_time(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    first = arena_on_known_deals()
    later = arena_on_known_deals(starts_at=T0 + timedelta(hours=1))
    ok(post(alice_api, f"/api/v1/arenas/{first.pk}/join", {}), 201)

    refused(post(alice_api, f"/api/v1/arenas/{later.pk}/join", {}), 409, "in-another-arena")
    refused(post(alice_api, f"/api/v1/arenas/{first.pk}/join", {}), 409, "arena-already-joined")
    clock.move(minutes=30)  # the first is over (nobody settled it yet): the seat is free
    ok(post(alice_api, f"/api/v1/arenas/{later.pk}/join", {}), 201)


@pytest.mark.django_db
def test_a_private_arena_is_found_by_its_link_only(clock: Clock, alice_api: APIClient) -> None:
    arena = arena_on_known_deals(private=True)

    for path in ("", "/standings", "/join"):
        method = alice_api.post if path == "/join" else alice_api.get
        refused(method(f"/api/v1/arenas/{arena.pk}{path}"), 404, "arena-not-found")
    refused(alice_api.get("/api/v1/arenas/AAAAAAAAAAAAAAAAAAAAAAAA"), 404, "arena-not-found")
    assert ok(alice_api.get(f"/api/v1/arenas/{arena.token}"))["id"] == arena.token
    listed = ok(alice_api.get("/api/v1/arenas", {"status": "running"}))
    assert arena.token not in {entry["id"] for entry in listed}


@pytest.mark.django_db
def test_the_seats_game_before_the_start_and_without_a_seat(
    clock: Clock, alice_api: APIClient, bob_api: APIClient
) -> None:
    arena = arena_on_known_deals(starts_at=T0 + timedelta(minutes=5))
    created = ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 201)
    assert created["game"] is None and created["arena"]["status"] == "upcoming"

    refused(alice_api.get(f"/api/v1/arenas/{arena.pk}/game"), 409, "arena-not-started")
    refused(bob_api.get(f"/api/v1/arenas/{arena.pk}/game"), 409, "not-in-arena")
    refused(post(bob_api, f"/api/v1/arenas/{arena.pk}/without-undo", {}), 409, "not-in-arena")


@pytest.mark.django_db
def test_the_last_deal_played_is_arena_deals_done(
    clock: Clock, alice: User, alice_api: APIClient
) -> None:
    arena = arena_on_known_deals(deals=1)
    ok(post(alice_api, f"/api/v1/arenas/{arena.pk}/join", {}), 201)
    game = current(alice, arena)
    ok(post(alice_api, f"/api/v1/games/{game.pk}/resign", {"version": 0}))

    refused(alice_api.get(f"/api/v1/arenas/{arena.pk}/game"), 409, "arena-deals-done")


@pytest.mark.django_db
def test_a_players_arena_starts_within_a_week_and_lasts_10_to_180_minutes(
    clock: Clock, alice_api: APIClient
) -> None:
    refused(
        post(alice_api, "/api/v1/arenas", {"minutes": 30, "starts_at": "2026-12-07T16:00:00Z"}),
        400,
        "bad-arena-start",
    )
    refused(
        post(alice_api, "/api/v1/arenas", {"minutes": 30, "starts_at": "2026-12-15T17:00:00Z"}),
        400,
        "bad-arena-start",
    )
    for minutes in (9, 181):
        refused(post(alice_api, "/api/v1/arenas", {"minutes": minutes}), 400, "invalid-request")
    refused(post(alice_api, "/api/v1/arenas", {"minutes": 30}), 503, "no-graded-deal")


@pytest.mark.django_db
def test_a_token_without_arena_play_may_read_but_not_join(clock: Clock, alice: User) -> None:
    from accounts.models import ApiToken

    arena = arena_on_known_deals()
    _, raw = ApiToken.issue(alice, "reader", ["game:read", "game:play", "race:play"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")

    assert client.get(f"/api/v1/arenas/{arena.pk}/standings").status_code == 200
    refused(post(client, f"/api/v1/arenas/{arena.pk}/join", {}), 403, "missing-scope")
    play.join(alice, arena)
    game = current(alice, arena)
    move = winning_line()[1][0]
    answer = post(client, f"/api/v1/games/{game.pk}/moves", {"move": move, "version": 0})
    refused(answer, 403, "missing-scope")
    assert answer.json()["error"]["scope"] == "arena:play"


@pytest.mark.django_db(transaction=True)
def test_winning_moves_racing_the_end_never_deadlock_and_the_end_counts_what_committed(
    clock: Clock, alice: User, bob: User, carol: User
) -> None:
    """Three last moves sent a millisecond before the end, at the moment another request
    settles it: each commits or is refused, nothing waits on another forever, and the
    settled end (settled again for a deal made as it ended) equals the stored games."""
    arena = arena_on_known_deals()
    players = [alice, bob, carol]
    line = winning_line()[1]
    for player in players:
        play.join(player, arena)
        play_some(player, arena, len(line) - 1)
    barrier = threading.Barrier(len(players) + 1)
    outcomes: list[str] = []

    def last_move(player: User) -> None:
        clock.in_this_thread(arena.ends_at - timedelta(milliseconds=1))
        game = current(player, arena)
        barrier.wait()
        try:
            services.play_move(player, game.pk, move=line[-1], version=game.version)
            outcomes.append("won")
        except ArenaOver:
            outcomes.append("over")
        finally:
            connection.close()

    def end() -> None:
        clock.in_this_thread(arena.ends_at)
        barrier.wait()
        try:
            play.settle(arena.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=last_move, args=(p,)) for p in players]
    threads.append(threading.Thread(target=end))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    clock.at = arena.ends_at
    play.settle(arena.pk)  # what a later touch does: a deal made as the end came closes too

    assert len(outcomes) == 3
    assert not Game.objects.filter(arena_game__seat__arena=arena, status="active").exists()
    seats = list(Seat.objects.filter(arena=arena))
    assert {seat.pk: seat.rank for seat in seats} == standings.final_ranks(arena)
    for seat in seats:
        score = points.score(standings.played(seat))
        assert (seat.points, seat.wins) == (score.points, score.wins)
    assert sum(seat.wins for seat in seats) == outcomes.count("won")
