"""Fair places and ratings: leaving never ranks above playing on, moves never break a tie,
real ties share a place and a rating change, chosen deals and idle accounts are never rated,
and the same pairing counts less each time within a day."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from accounts.guests import create_guest
from games.models import Game, PlayerStats, Result
from games.races.models import QueueEntry, Race, Racer, RaceRating
from games.races.queue import GATHER_SECONDS
from tests.support.play import post, token_client, winning_line
from tests.support.races import (
    end_by_time_limit,
    my_game,
    ok,
    play_direct,
    play_line,
    resign,
    running_race,
    win,
)

LINE = winning_line()[1]
#: A move that uncovers a card and puts none home (the line's second; it needs no A♠ home).
UNCOVERING = ["6H>5"]


def final(client: APIClient, room: str) -> dict[str, Any]:
    state = ok(client.get(f"/api/v1/races/{room}"))
    assert state["status"] == "finished", state
    return {racer["player"]: racer for racer in state["racers"]}


@pytest.mark.django_db
def test_a_racer_who_resigns_at_once_ranks_below_one_who_played_on(
    alice_api: APIClient, bob_api: APIClient
) -> None:
    room = running_race(alice_api, bob_api)
    play_line(alice_api, my_game(alice_api, room), UNCOVERING)
    resign(bob_api, my_game(bob_api, room))
    end_by_time_limit(room)

    racers = final(alice_api, room)
    assert racers["alice"]["cards_on_foundations"] == racers["bob"]["cards_on_foundations"] == 0
    assert racers["alice"]["face_down"] == 20 and racers["bob"]["face_down"] == 21
    assert (racers["alice"]["place"], racers["bob"]["place"]) == (1, 2)


@pytest.mark.django_db
def test_a_forfeit_ranks_below_a_racer_who_played_on_with_less_progress(
    alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    room = running_race(alice_api, bob_api)
    play_line(alice_api, my_game(alice_api, room), UNCOVERING)
    play_direct(bob, my_game(bob_api, room), LINE[:8])  # 6 cards home
    Racer.objects.filter(player=bob).update(seen_at=timezone.now() - timedelta(seconds=61))
    ok(alice_api.get(f"/api/v1/races/{room}"))  # settles bob's forfeit
    end_by_time_limit(room)

    racers = final(alice_api, room)
    assert racers["bob"]["state"] == "forfeited" and racers["bob"]["cards_on_foundations"] == 6
    assert (racers["alice"]["place"], racers["bob"]["place"]) == (1, 2)


@pytest.mark.django_db(transaction=True)
def test_two_racers_resigning_in_the_same_millisecond_share_a_place(
    alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    carol_api = token_client(carol)
    room = running_race(alice_api, bob_api, carol_api)
    play_line(alice_api, my_game(alice_api, room), LINE[:1])
    resigners = [bob_api, carol_api]
    games = [my_game(client, room) for client in resigners]
    start = threading.Barrier(2, timeout=60)
    answers: list[Any] = [None, None]

    def resign_now(index: int) -> None:
        start.wait()
        try:
            body = {"version": 0}
            answers[index] = post(resigners[index], f"/api/v1/games/{games[index]}/abandon", body)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign_now, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [200, 200]
    end_by_time_limit(room)

    racers = final(alice_api, room)
    places = {name: racer["place"] for name, racer in racers.items()}
    assert places == {"alice": 1, "bob": 2, "carol": 2}
    assert racers["bob"]["rating_after"] is racers["carol"]["rating_after"] is None


@pytest.mark.django_db
def test_a_real_tie_is_rated_alike(
    alice: User, alice_api: APIClient, bob: User, bob_api: APIClient, carol: User
) -> None:
    carol_api = token_client(carol)
    room = running_race(alice_api, bob_api, carol_api, server_dealt=True)
    play_direct(alice, my_game(alice_api, room), LINE[:8])
    for player, client in ((bob, bob_api), (carol, carol_api)):
        game = my_game(client, room)
        play_direct(player, game, LINE[:5])
        resign(client, game)
    end_by_time_limit(room)

    racers = final(alice_api, room)
    assert [racers[name]["place"] for name in ("alice", "bob", "carol")] == [1, 2, 2]
    changes = {
        name: racer["rating_after"] - racer["rating_before"] for name, racer in racers.items()
    }
    assert changes["alice"] > 0
    assert changes["bob"] == pytest.approx(changes["carol"], abs=1e-12)
    ratings = {row.player.username: row for row in RaceRating.objects.select_related("player")}
    assert ratings["bob"].mu == pytest.approx(ratings["carol"].mu, abs=1e-12)
    assert ratings["bob"].sigma == pytest.approx(ratings["carol"].sigma, abs=1e-12)


@pytest.mark.django_db
def test_a_room_with_a_chosen_deal_is_never_rated(
    alice: User, alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    room = running_race(alice_api, bob_api)
    assert ok(alice_api.get(f"/api/v1/races/{room}"))["rated"] is False
    play_direct(bob, my_game(bob_api, room), LINE[:10])
    win(alice_api, room, alice)

    racers = final(bob_api, room)
    assert racers["alice"]["place"] == 1 and racers["alice"]["rating_after"] is None
    assert not RaceRating.objects.exists()


@pytest.mark.django_db
def test_a_server_dealt_race_is_rated(
    alice: User, alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    room = running_race(alice_api, bob_api, server_dealt=True)
    assert ok(alice_api.get(f"/api/v1/races/{room}"))["rated"] is True
    play_direct(bob, my_game(bob_api, room), LINE[:10])
    win(alice_api, room, alice)

    racers = final(bob_api, room)
    assert racers["alice"]["rating_after"] > racers["bob"]["rating_after"]
    assert RaceRating.objects.count() == 2


@pytest.mark.django_db
def test_an_account_that_resigns_at_once_farms_no_rating(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    for _ in range(3):
        room = running_race(alice_api, bob_api, server_dealt=True)
        resign(bob_api, my_game(bob_api, room))
        game = my_game(alice_api, room)
        play_direct(alice, game, LINE[:6])
        resign(alice_api, game)
        assert final(alice_api, room)["alice"]["place"] == 1
    assert not RaceRating.objects.exists()


@pytest.mark.django_db
def test_the_same_pairing_counts_half_as_much_each_time_within_a_day(
    alice: User, alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    model = PlackettLuce()
    for weight in (1.0, 0.5, 0.25):
        before = {
            name: RaceRating.objects.filter(player__username=name).first()
            for name in ("alice", "bob")
        }
        priors = [
            model.rating(mu=row.mu, sigma=row.sigma) if row else model.rating()
            for row in before.values()
        ]
        room = running_race(alice_api, bob_api, server_dealt=True)
        play_direct(bob, my_game(bob_api, room), LINE[:6])
        win(alice_api, room, alice)

        (alice_full,), (bob_full,) = model.rate([[prior] for prior in priors], ranks=[1.0, 2.0])
        for name, prior, full in zip(("alice", "bob"), priors, (alice_full, bob_full), strict=True):
            row = RaceRating.objects.get(player__username=name)
            assert row.mu == pytest.approx(prior.mu + weight * (full.mu - prior.mu), abs=1e-9)
            assert row.sigma == pytest.approx(
                prior.sigma + weight * (full.sigma - prior.sigma), abs=1e-9
            )


@pytest.mark.django_db
def test_race_results_have_their_own_statistics(
    alice: User, alice_api: APIClient, bob: User, bob_api: APIClient
) -> None:
    for _ in range(2):
        room = running_race(alice_api, bob_api, server_dealt=True)
        play_direct(alice, my_game(alice_api, room), LINE[:10])
        play_direct(bob, my_game(bob_api, room), LINE[:6])
        end_by_time_limit(room)
        assert final(alice_api, room)["alice"]["place"] == 1

    raced = Game.objects.filter(raced=True)
    assert raced.count() == 4 and not raced.exclude(status=Game.Status.ABANDONED).exists()
    assert not Result.objects.exists() and not PlayerStats.objects.exists()
    profile = ok(APIClient().get("/api/v1/players/alice"))
    assert profile["stats"]["C"]["games"] == 0
    assert ok(APIClient().get("/api/v1/players/alice/history?rule=C"))["results"] == []
    races = ok(APIClient().get("/api/v1/players/alice/races"))
    assert races["stats"]["C"] == {"races": 2, "wins": 2, "podiums": 2}
    assert races["ratings"]["C"]["wins"] == 2
    assert ok(APIClient().get("/api/v1/players/bob/races"))["stats"]["C"]["wins"] == 0
    assert Race.objects.filter(rated=True).count() == 2


def guest_client() -> APIClient:
    return token_client(create_guest())


@pytest.mark.django_db
def test_a_quick_match_of_two_guests_says_it_rates_nobody() -> None:
    """It said "Rated" and rated nobody: guests race unrated, so two of them make no rated race."""
    first, second = guest_client(), guest_client()
    for client in (first, second):
        ok(post(client, "/api/v1/races/queue", {"rule": "C"}))
    # Two waited past the gathering time: the next status check matches them.
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=GATHER_SECONDS + 1))
    room = ok(first.get("/api/v1/races/queue"))["race"]
    assert room is not None
    state = ok(first.get(f"/api/v1/races/{room}"))
    assert state["quick"] is True
    assert (state["rated"], state["unrated_reason"]) == (False, "guests")


@pytest.mark.django_db
def test_a_server_dealt_race_of_one_player_and_a_guest_is_unrated(
    alice: User, alice_api: APIClient
) -> None:
    room = running_race(alice_api, guest_client(), server_dealt=True)
    state = ok(alice_api.get(f"/api/v1/races/{room}"))
    assert (state["rated"], state["unrated_reason"]) == (False, "guests")


@pytest.mark.django_db
def test_an_open_room_with_seats_left_may_still_be_rated(alice: User, alice_api: APIClient) -> None:
    room = str(ok(post(alice_api, "/api/v1/races", {"private": True}), 201)["room"])
    state = ok(alice_api.get(f"/api/v1/races/{room}"))
    assert (state["rated"], state["unrated_reason"]) == (True, None)


@pytest.mark.django_db
def test_a_chosen_deal_names_its_reason(alice_api: APIClient, bob_api: APIClient) -> None:
    state = ok(alice_api.get(f"/api/v1/races/{running_race(alice_api, bob_api)}"))
    assert (state["rated"], state["unrated_reason"]) == (False, "chosen-deal")


@pytest.mark.django_db
def test_a_racer_who_never_moved_places_below_one_who_played_and_resigned(
    alice: User, alice_api: APIClient, bob_api: APIClient, carol: User
) -> None:
    """In a one-minute race the grace (60 s) cannot run out: a racer who never connects and
    never moves "played on" to the end. Never playing places last, below leaving."""
    room = running_race(alice_api, bob_api, token_client(carol), time_limit_minutes=1)
    version = play_direct(alice, my_game(alice_api, room), LINE[:12])
    assert version == 12
    resign(alice_api, my_game(alice_api, room))
    end_by_time_limit(room)

    racers = final(bob_api, room)
    assert racers["alice"]["state"] == "resigned" and racers["alice"]["moves"] == 12
    assert racers["bob"]["state"] == "finished" and racers["bob"]["moves"] == 0
    assert [racers[name]["place"] for name in ("alice", "bob", "carol")] == [1, 2, 2]
